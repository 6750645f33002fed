//! Writing a problem for other solvers: a MIP solver (CPLEX LP), a pseudo-Boolean solver (OPB)
//! or a SAT solver (DIMACS CNF), so that an answer can be checked elsewhere.
//!
//! The model is the same in all three: one 0/1 variable `x{k+1}` per option `k` (the options
//! in order, as `solve --format json` numbers them from 0 for a DLX file), and
//!
//! - for each primary item with bounds `lo:hi` (`1:1` without), `lo <= (the options holding
//!   it) <= hi`;
//! - for each secondary item, at most one of its uncolored options, or else options of one
//!   color: a variable `y` per color of the item (after the `x`s), each option of that color
//!   implying its `y` (`x <= y`), and at most one of the uncolored options and the `y`s;
//! - in LP and OPB, the objective: minimise the sum of the options' costs (`|n`); a problem
//!   without costs has none in OPB and the constant 0 in LP. CNF asks the feasibility
//!   question alone: its models, restricted to the `x`s, are exactly the solutions.
//!
//! In LP every variable appears in the objective, a constraint or the `Bounds` section
//! before `Binary` lists it (SCIP's reader refuses a variable met first in `Binary`); the
//! files are read back by SCIP and HiGHS in the command line's tests.
//!
//! In CNF a cardinality constraint is written as clauses: `at most k` of `n` literals by
//! Sinz's sequential counter (pairwise for `k = 1` and `n <= 6`), `at least k` as `at most
//! n - k` of the negations; the counters' variables come after the `y`s. A primary item that
//! must be covered but is in no option makes the problem infeasible: a fresh variable forced
//! both ways (`z >= 1`, `z <= 0`) says so.
//!
//! ```
//! use dancecard_format::export::{export, Target};
//!
//! let doc = dancecard_format::parse_dlx(b"a b\na |3\nb |4\na b |5\n")?;
//! let opb = export(&doc.problem, Target::Opb);
//! assert!(opb.contains("min: +3 x1 +4 x2 +5 x3 ;"));
//! assert!(opb.contains("+1 x1 +1 x3 = 1 ;"));
//! let cnf = export(&doc.problem, Target::Cnf);
//! assert!(cnf.contains("p cnf 3 "));
//! # Ok::<(), dancecard_format::ParseError>(())
//! ```
//!
//! # Bibliography
//!
//! - Carsten Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints",
//!   *Principles and Practice of Constraint Programming* (2005), 827-831.
//! - Olivier Roussel and Vasco Manquinho, "Input/output format and solver requirements for
//!   the competitions of pseudo-Boolean solvers" (2012): the OPB format.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use dancecard_engine::{ColorId, ItemKind, Problem};

/// The format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// CPLEX LP: a mixed-integer program (all variables binary).
    Lp,
    /// OPB: pseudo-Boolean constraints, as the PB competitions read them.
    Opb,
    /// DIMACS CNF: clauses; the feasibility question (costs are left out).
    Cnf,
}

/// A linear constraint on 0/1 variables (numbered from 1): `sum of terms` in `lo..=hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Linear {
    /// A name for LP (`i3`, `s5_c2`, ...).
    name: String,
    /// `(coefficient, variable)`.
    terms: Vec<(i64, u32)>,
    lo: Option<i64>,
    hi: Option<i64>,
}

/// The model of the module docs: its variables, constraints and objective.
struct Model {
    /// The number of option variables (`x1..`).
    options: u32,
    /// All variables: options, then colors, then (at most one) the infeasibility witness.
    variables: u32,
    constraints: Vec<Linear>,
    /// Per option: its cost.
    costs: Vec<u64>,
    /// Per variable past the options: what it stands for (a comment).
    aux: Vec<String>,
}

impl Model {
    fn new(problem: &Problem) -> Model {
        let n = problem.option_count() as u32;
        let mut holding: Vec<Vec<(u32, Option<ColorId>)>> = vec![Vec::new(); problem.item_count()];
        for o in problem.options() {
            for e in problem.option(o) {
                holding[e.item.index()].push((o.index() as u32 + 1, e.color));
            }
        }
        let mut m = Model {
            options: n,
            variables: n,
            constraints: Vec::new(),
            costs: problem.options().map(|o| problem.option_cost(o)).collect(),
            aux: Vec::new(),
        };
        let mut infeasible = false;
        for item in problem.items() {
            let name = format!("i{}", item.index() + 1);
            let those = &holding[item.index()];
            match problem.item_kind(item) {
                ItemKind::Primary => {
                    let (lo, hi) = problem.item_bounds(item).unwrap_or((1, 1));
                    if those.is_empty() {
                        infeasible |= lo > 0;
                        continue;
                    }
                    let terms = those.iter().map(|&(x, _)| (1, x)).collect();
                    let hi = (i64::from(hi) < those.len() as i64).then_some(i64::from(hi));
                    let lo = (lo > 0).then_some(i64::from(lo));
                    m.constraints.push(Linear { name, terms, lo, hi });
                }
                ItemKind::Secondary => {
                    let mut by_color: BTreeMap<ColorId, Vec<u32>> = BTreeMap::new();
                    let mut exclusive: Vec<u32> = Vec::new();
                    for &(x, color) in those {
                        match color {
                            Some(c) => by_color.entry(c).or_default().push(x),
                            None => exclusive.push(x),
                        }
                    }
                    if by_color.len() + exclusive.len() <= 1 {
                        continue;
                    }
                    for (c, xs) in by_color {
                        m.variables += 1;
                        let y = m.variables;
                        let label = format!(
                            "item {} colored {}",
                            problem.item_name(item),
                            problem.color_name(c),
                        );
                        m.aux.push(label);
                        for x in xs {
                            m.constraints.push(Linear {
                                name: format!("{name}_y{y}_x{x}"),
                                terms: vec![(1, x), (-1, y)],
                                lo: None,
                                hi: Some(0),
                            });
                        }
                        exclusive.push(y);
                    }
                    let terms = exclusive.iter().map(|&x| (1, x)).collect();
                    m.constraints.push(Linear { name, terms, lo: None, hi: Some(1) });
                }
            }
        }
        if infeasible {
            m.variables += 1;
            let z = m.variables;
            m.aux.push("a primary item in no option: infeasible".to_string());
            m.constraints.push(Linear {
                name: "infeasible".to_string(),
                terms: vec![(1, z)],
                lo: Some(1),
                hi: Some(0),
            });
        }
        m
    }

    fn has_costs(&self) -> bool {
        self.costs.iter().any(|&c| c > 0)
    }

    /// Comment lines (after `prefix`) naming the variables past the options.
    fn legend(&self, out: &mut String, prefix: &str) {
        let _ = writeln!(
            out,
            "{prefix} x1..x{}: the options in order (x{{k+1}} is option k, from 0)",
            self.options
        );
        for (k, what) in self.aux.iter().enumerate() {
            let _ = writeln!(out, "{prefix} x{}: {what}", self.options as usize + k + 1);
        }
    }
}

/// `problem` written for another solver (see the module docs).
pub fn export(problem: &Problem, target: Target) -> String {
    let model = Model::new(problem);
    match target {
        Target::Lp => lp(problem, &model),
        Target::Opb => opb(problem, &model),
        Target::Cnf => cnf(problem, &model),
    }
}

/// A sum of terms in LP syntax (`3 x1 + x2 - x3`), broken into lines of 8 terms.
fn lp_sum(terms: impl Iterator<Item = (i128, u32)>) -> String {
    let mut s = String::new();
    for (k, (a, x)) in terms.enumerate() {
        if k > 0 && k % 8 == 0 {
            s.push_str("\n  ");
        }
        let m = a.unsigned_abs();
        let coefficient = if m == 1 { String::new() } else { format!("{m} ") };
        let sign = match (k, a < 0) {
            (0, false) => "",
            (0, true) => "- ",
            (_, false) => " + ",
            (_, true) => " - ",
        };
        let _ = write!(s, "{sign}{coefficient}x{x}");
    }
    s
}

fn header(problem: &Problem, out: &mut String, prefix: &str) {
    let _ = writeln!(
        out,
        "{prefix} dancecard export: {} options, {} items ({} primary)",
        problem.option_count(),
        problem.item_count(),
        problem.primary_count()
    );
}

fn lp(problem: &Problem, m: &Model) -> String {
    let mut s = String::new();
    header(problem, &mut s, "\\");
    m.legend(&mut s, "\\");
    s.push_str("Minimize\n cost: ");
    if m.has_costs() {
        let terms = m.costs.iter().enumerate().filter(|(_, &c)| c > 0);
        s.push_str(&lp_sum(terms.map(|(k, &c)| (i128::from(c), k as u32 + 1))));
    } else {
        s.push('0');
    }
    s.push_str("\nSubject To\n");
    for c in &m.constraints {
        let sum = lp_sum(c.terms.iter().map(|&(a, x)| (i128::from(a), x)));
        match (c.lo, c.hi) {
            (Some(lo), Some(hi)) if lo == hi => {
                let _ = writeln!(s, " {}: {sum} = {lo}", c.name);
            }
            (lo, hi) => {
                if let Some(lo) = lo {
                    let _ = writeln!(s, " {}_lo: {sum} >= {lo}", c.name);
                }
                if let Some(hi) = hi {
                    let _ = writeln!(s, " {}_hi: {sum} <= {hi}", c.name);
                }
            }
        }
    }
    // A variable in no constraint and not in the objective (an option whose items bind it to
    // nothing, at cost 0) is declared in `Bounds`: a reader such as SCIP's refuses a name that
    // first appears in `Binary`.
    let mut seen = vec![false; m.variables as usize + 1];
    for (k, &c) in m.costs.iter().enumerate() {
        seen[k + 1] |= c > 0;
    }
    for c in m.constraints.iter().filter(|c| c.lo.is_some() || c.hi.is_some()) {
        for &(_, x) in &c.terms {
            seen[x as usize] = true;
        }
    }
    let unseen: Vec<u32> = (1..=m.variables).filter(|&x| !seen[x as usize]).collect();
    if !unseen.is_empty() {
        s.push_str("Bounds\n");
        for x in unseen {
            let _ = writeln!(s, " 0 <= x{x} <= 1");
        }
    }
    if m.variables > 0 {
        s.push_str("Binary\n");
        for x in 1..=m.variables {
            let _ = write!(s, " x{x}");
            if x % 16 == 0 || x == m.variables {
                s.push('\n');
            }
        }
    }
    s.push_str("End\n");
    s
}

/// A sum of terms in OPB syntax (`+3 x1 -1 x2`).
fn opb_sum(terms: impl Iterator<Item = (i128, u32)>) -> String {
    let mut s = String::new();
    for (a, x) in terms {
        let _ = write!(s, "{}{a} x{x} ", if a >= 0 { "+" } else { "" });
    }
    s
}

fn opb(problem: &Problem, m: &Model) -> String {
    let mut rows = String::new();
    let mut count = 0;
    for c in &m.constraints {
        let sum = |sign: i128| opb_sum(c.terms.iter().map(|&(a, x)| (sign * i128::from(a), x)));
        match (c.lo, c.hi) {
            (Some(lo), Some(hi)) if lo == hi => {
                let _ = writeln!(rows, "{}= {lo} ;", sum(1));
                count += 1;
            }
            (lo, hi) => {
                if let Some(lo) = lo {
                    let _ = writeln!(rows, "{}>= {lo} ;", sum(1));
                    count += 1;
                }
                if let Some(hi) = hi {
                    let _ = writeln!(rows, "{}>= {} ;", sum(-1), -hi);
                    count += 1;
                }
            }
        }
    }
    let mut s = format!("* #variable= {} #constraint= {count}\n", m.variables);
    header(problem, &mut s, "*");
    m.legend(&mut s, "*");
    if m.has_costs() {
        let terms = m.costs.iter().enumerate().filter(|(_, &c)| c > 0);
        let sum = opb_sum(terms.map(|(k, &c)| (i128::from(c), k as u32 + 1)));
        let _ = writeln!(s, "min: {sum};");
    }
    s.push_str(&rows);
    s
}

/// Clauses of DIMACS literals, and the next free variable.
struct Clauses {
    clauses: Vec<Vec<i64>>,
    next: i64,
}

impl Clauses {
    fn fresh(&mut self) -> i64 {
        self.next += 1;
        self.next
    }

    /// At most `k` of `lits` true.
    fn at_most(&mut self, lits: &[i64], k: usize) {
        let n = lits.len();
        if k >= n {
            return;
        }
        if k == 0 {
            for &l in lits {
                self.clauses.push(vec![-l]);
            }
            return;
        }
        if k == 1 && n <= 6 {
            for i in 0..n {
                for j in i + 1..n {
                    self.clauses.push(vec![-lits[i], -lits[j]]);
                }
            }
            return;
        }
        // Sinz's sequential counter: s[i][j] means "at least j + 1 of lits[0..=i] true".
        let s: Vec<Vec<i64>> = (0..n - 1).map(|_| (0..k).map(|_| self.fresh()).collect()).collect();
        self.clauses.push(vec![-lits[0], s[0][0]]);
        for &register in &s[0][1..] {
            self.clauses.push(vec![-register]);
        }
        for i in 1..n - 1 {
            self.clauses.push(vec![-lits[i], s[i][0]]);
            self.clauses.push(vec![-s[i - 1][0], s[i][0]]);
            for j in 1..k {
                self.clauses.push(vec![-lits[i], -s[i - 1][j - 1], s[i][j]]);
                self.clauses.push(vec![-s[i - 1][j], s[i][j]]);
            }
            self.clauses.push(vec![-lits[i], -s[i - 1][k - 1]]);
        }
        self.clauses.push(vec![-lits[n - 1], -s[n - 2][k - 1]]);
    }

    /// At least `k` of `lits` true.
    fn at_least(&mut self, lits: &[i64], k: usize) {
        match k {
            0 => {}
            1 => self.clauses.push(lits.to_vec()),
            _ if k > lits.len() => {
                let z = self.fresh();
                self.clauses.push(vec![z]);
                self.clauses.push(vec![-z]);
            }
            _ => {
                let negated: Vec<i64> = lits.iter().map(|&l| -l).collect();
                self.at_most(&negated, lits.len() - k);
            }
        }
    }
}

fn cnf(problem: &Problem, m: &Model) -> String {
    let mut c = Clauses { clauses: Vec::new(), next: i64::from(m.variables) };
    for l in &m.constraints {
        if l.terms.iter().all(|&(a, _)| a == 1) {
            let lits: Vec<i64> = l.terms.iter().map(|&(_, x)| i64::from(x)).collect();
            if let Some(lo) = l.lo {
                c.at_least(&lits, lo as usize);
            }
            if let Some(hi) = l.hi {
                c.at_most(&lits, hi as usize);
            }
        } else {
            // `x - y <= 0`: x implies y.
            debug_assert!(l.terms.len() == 2 && l.lo.is_none() && l.hi == Some(0));
            let (x, y) = (l.terms[0].1, l.terms[1].1);
            c.clauses.push(vec![-i64::from(x), i64::from(y)]);
        }
    }
    let mut s = String::new();
    header(problem, &mut s, "c");
    m.legend(&mut s, "c");
    if c.next > i64::from(m.variables) {
        let _ = writeln!(s, "c x{}..x{}: the cardinality counters", m.variables + 1, c.next);
    }
    let _ = writeln!(s, "p cnf {} {}", c.next, c.clauses.len());
    for clause in &c.clauses {
        for l in clause {
            let _ = write!(s, "{l} ");
        }
        s.push_str("0\n");
    }
    s
}
