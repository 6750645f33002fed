//! `export` (LP, OPB, CNF) against the brute-force oracle, with no solver outside: the files
//! are read back here, and every assignment of the option variables (all of them for up to 12
//! options; the solutions and random others beyond) is feasible exactly when it is a
//! solution, at the solution's cost. The CLI's tests solve exported files with SCIP and a SAT
//! solver besides (crates/cli/tests/export.rs).

use dancecard_format::export::{export, Target};
use dancecard_testkit::{brute_force_family, family_problem, FamilyProblem};
use proptest::prelude::*;

/// A linear constraint read back: `sum of (a * x)` compared with `rhs`.
#[derive(Debug)]
struct Row {
    terms: Vec<(i64, usize)>,
    op: String,
    rhs: i64,
}

impl Row {
    fn holds(&self, x: &[bool]) -> bool {
        let sum: i64 = self.terms.iter().map(|&(a, v)| if x[v] { a } else { 0 }).sum();
        match self.op.as_str() {
            "=" => sum == self.rhs,
            ">=" => sum >= self.rhs,
            "<=" => sum <= self.rhs,
            op => panic!("operator {op}"),
        }
    }
}

/// `x7` to 7.
fn var(word: &str) -> usize {
    word.strip_prefix('x').and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{word}"))
}

/// An OPB file: its number of variables, objective and rows.
fn read_opb(text: &str) -> (usize, Vec<(i64, usize)>, Vec<Row>) {
    let head = text.lines().next().unwrap();
    let words: Vec<&str> = head.split_whitespace().collect();
    assert_eq!((words[0], words[1], words[3]), ("*", "#variable=", "#constraint="), "{head}");
    let variables: usize = words[2].parse().unwrap();
    let count: usize = words[4].parse().unwrap();
    let mut objective = Vec::new();
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('*')) {
        let line = line.strip_suffix(" ;").or_else(|| line.strip_suffix(';')).expect(line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let terms = |ws: &[&str]| -> Vec<(i64, usize)> {
            ws.chunks(2).map(|c| (c[0].parse().unwrap(), var(c[1]))).collect()
        };
        if words.first() == Some(&"min:") {
            objective = terms(&words[1..]);
        } else {
            let n = words.len();
            let op = words[n - 2].to_string();
            rows.push(Row {
                terms: terms(&words[..n - 2]),
                op,
                rhs: words[n - 1].parse().unwrap(),
            });
        }
    }
    assert_eq!(rows.len(), count, "#constraint=");
    (variables, objective, rows)
}

/// An LP file as written by `export`: its objective and rows (variables from `Binary`).
fn read_lp(text: &str) -> (usize, Vec<(i64, usize)>, Vec<Row>) {
    // Continuation lines (three spaces, no name) join the line above.
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('\\')) {
        if line.starts_with("   ") {
            lines.last_mut().unwrap().push_str(line);
        } else {
            lines.push(line.to_string());
        }
    }
    let terms = |expr: &str| -> Vec<(i64, usize)> {
        let mut out = Vec::new();
        let mut sign = 1;
        let mut coefficient = 1;
        for w in expr.split_whitespace() {
            match w {
                "+" => sign = 1,
                "-" => sign = -1,
                _ if w.starts_with('x') => {
                    out.push((sign * coefficient, var(w)));
                    (sign, coefficient) = (1, 1);
                }
                _ => coefficient = w.parse().unwrap(),
            }
        }
        out
    };
    let mut section = "";
    let (mut objective, mut rows, mut variables) = (Vec::new(), Vec::new(), 0);
    // Every variable must appear before `Binary` lists it (SCIP's reader refuses one that
    // does not): in the objective, a row or `Bounds`.
    let mut declared = std::collections::BTreeSet::new();
    for line in &lines {
        match line.trim() {
            "Minimize" | "Subject To" | "Bounds" | "Binary" | "End" => section = line.trim_end(),
            body => match section {
                "Minimize" => {
                    let expr = body.strip_prefix("cost:").unwrap();
                    if expr.trim() != "0" {
                        objective = terms(expr);
                        declared.extend(objective.iter().map(|&(_, x)| x));
                    }
                }
                "Subject To" => {
                    let (_, rest) = body.split_once(": ").unwrap();
                    let words: Vec<&str> = rest.split_whitespace().collect();
                    let n = words.len();
                    let expr = words[..n - 2].join(" ");
                    let rhs = words[n - 1].parse().unwrap();
                    let row = Row { terms: terms(&expr), op: words[n - 2].to_string(), rhs };
                    declared.extend(row.terms.iter().map(|&(_, x)| x));
                    rows.push(row);
                }
                "Bounds" => {
                    let words: Vec<&str> = body.split_whitespace().collect();
                    assert!(matches!(words[..], ["0", "<=", _, "<=", "1"]), "{body}");
                    assert!(declared.insert(var(words[2])), "{body}: declared twice");
                }
                "Binary" => {
                    for w in body.split_whitespace() {
                        assert!(declared.contains(&var(w)), "{w}: first seen in Binary\n{text}");
                        variables += 1;
                    }
                }
                other => panic!("{other}: {body}"),
            },
        }
    }
    (variables, objective, rows)
}

/// Whether some values of the variables past the options satisfy `rows` with the options
/// set as `chosen`: the color variables at their least (each the OR of its options, which
/// satisfies `x <= y` and keeps `... <= 1` smallest), any other tried both ways.
fn feasible(options: usize, variables: usize, rows: &[Row], chosen: &[bool]) -> bool {
    let mut x = vec![false; variables + 1];
    x[1..=options].copy_from_slice(chosen);
    // A color variable appears in rows `x - y <= 0`; others (the witness) do not.
    let mut free = Vec::new();
    for v in options + 1..=variables {
        let implied: Vec<usize> = rows
            .iter()
            .filter(|r| r.terms.len() == 2 && r.terms[1] == (-1, v) && r.op == "<=")
            .map(|r| r.terms[0].1)
            .collect();
        if implied.is_empty() {
            free.push(v);
        } else {
            x[v] = implied.iter().any(|&o| x[o]);
        }
    }
    (0..1u32 << free.len()).any(|bits| {
        for (k, &v) in free.iter().enumerate() {
            x[v] = bits >> k & 1 == 1;
        }
        rows.iter().all(|r| r.holds(&x))
    })
}

/// Satisfiable under the unit clauses `assumed`: DPLL with unit propagation.
fn satisfiable(clauses: &[Vec<i64>], values: &mut Vec<Option<bool>>) -> bool {
    // Propagate.
    let mut trail = Vec::new();
    loop {
        let mut changed = false;
        for clause in clauses {
            let mut open = None;
            let mut opens = 0;
            let mut satisfied = false;
            for &l in clause {
                match values[l.unsigned_abs() as usize] {
                    Some(b) if b == (l > 0) => satisfied = true,
                    Some(_) => {}
                    None => {
                        opens += 1;
                        open = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (opens, open) {
                (0, _) => {
                    for v in trail {
                        values[v] = None;
                    }
                    return false;
                }
                (1, Some(l)) => {
                    values[l.unsigned_abs() as usize] = Some(l > 0);
                    trail.push(l.unsigned_abs() as usize);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    let Some(v) = (1..values.len()).find(|&v| values[v].is_none()) else {
        for v in trail {
            values[v] = None;
        }
        return true;
    };
    let mut found = false;
    for b in [false, true] {
        values[v] = Some(b);
        if satisfiable(clauses, values) {
            found = true;
            break;
        }
    }
    values[v] = None;
    for v in trail {
        values[v] = None;
    }
    found
}

fn read_cnf(text: &str) -> (usize, Vec<Vec<i64>>) {
    let mut variables = 0;
    let mut clauses = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('c')) {
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let words: Vec<usize> = rest.split_whitespace().map(|w| w.parse().unwrap()).collect();
            variables = words[0];
            clauses.reserve(words[1]);
            continue;
        }
        let lits: Vec<i64> = line.split_whitespace().map(|w| w.parse().unwrap()).collect();
        assert_eq!(lits.last(), Some(&0), "{line}");
        clauses.push(lits[..lits.len() - 1].to_vec());
    }
    (variables, clauses)
}

/// The assignments to check: all of them for up to 12 options, else the solutions and 300
/// pseudo-random others.
fn assignments(options: usize, solutions: &[Vec<usize>]) -> Vec<Vec<bool>> {
    if options <= 12 {
        return (0..1u32 << options)
            .map(|bits| (0..options).map(|k| bits >> k & 1 == 1).collect())
            .collect();
    }
    let mut out: Vec<Vec<bool>> =
        solutions.iter().map(|s| (0..options).map(|k| s.contains(&k)).collect()).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..300 {
        out.push(
            (0..options)
                .map(|_| {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    state >> 61 == 0
                })
                .collect(),
        );
    }
    out
}

fn check(f: &FamilyProblem) -> Result<(), TestCaseError> {
    let doc = dancecard_format::parse_dlx(f.to_dlx().as_bytes()).unwrap();
    let p = &doc.problem;
    let n = p.option_count();
    let solutions = brute_force_family(f);
    let lp = export(p, Target::Lp);
    let opb = export(p, Target::Opb);
    let cnf = export(p, Target::Cnf);
    let (lp_vars, lp_objective, lp_rows) = read_lp(&lp);
    let (opb_vars, opb_objective, opb_rows) = read_opb(&opb);
    let (cnf_vars, clauses) = read_cnf(&cnf);
    prop_assert_eq!(lp_vars, opb_vars);
    for x in assignments(n, &solutions) {
        let chosen: Vec<usize> = (0..n).filter(|&k| x[k]).collect();
        let is_solution = solutions.contains(&chosen);
        prop_assert_eq!(feasible(n, lp_vars, &lp_rows, &x), is_solution, "LP {:?}\n{}", chosen, lp);
        prop_assert_eq!(
            feasible(n, opb_vars, &opb_rows, &x),
            is_solution,
            "OPB {:?}\n{}",
            chosen,
            opb
        );
        let mut values = vec![None; cnf_vars + 1];
        for k in 0..n {
            values[k + 1] = Some(x[k]);
        }
        prop_assert_eq!(
            satisfiable(&clauses, &mut values),
            is_solution,
            "CNF {:?}\n{}",
            chosen,
            cnf
        );
        if is_solution {
            let cost: u64 = chosen.iter().map(|&k| f.costs[k]).sum();
            for objective in [&lp_objective, &opb_objective] {
                let value: i64 =
                    objective.iter().filter(|&&(_, v)| x[v - 1]).map(|&(a, _)| a).sum();
                prop_assert_eq!(value as u64, cost);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every kind of problem: secondary items, colors, bounds `lo:hi` (`0:b`, `b > 1`), costs,
    /// no options, the empty solution.
    #[test]
    fn exports_mean_what_the_problem_means(f in family_problem(true, true)) {
        check(&f)?;
    }
}

/// A primary item in no option makes all three infeasible.
#[test]
fn an_item_in_no_option() {
    let doc = dancecard_format::parse_dlx(b"a b\na\n").unwrap();
    let opb = export(&doc.problem, Target::Opb);
    let (vars, _, rows) = read_opb(&opb);
    assert!(!feasible(1, vars, &rows, &[true]) && !feasible(1, vars, &rows, &[false]), "{opb}");
    let (vars, clauses) = read_cnf(&export(&doc.problem, Target::Cnf));
    for x in [false, true] {
        let mut values = vec![None; vars + 1];
        values[1] = Some(x);
        assert!(!satisfiable(&clauses, &mut values));
    }
}
