//! `dancecard export`: write an exact cover problem for a MIP, a pseudo-Boolean or a SAT
//! solver (`dancecard_format::export`), to check an answer elsewhere.

use std::path::PathBuf;
use std::process::ExitCode;

use dancecard_format::export::{export, Target};

use crate::exit::FOUND;
use crate::output;

/// Write an exact cover problem for another solver: a MIP (CPLEX LP), a pseudo-Boolean
/// solver (OPB) or a SAT solver (DIMACS CNF), on stdout.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "One 0/1 variable x{k+1} per option k (in input order from 0, as `solve --format
json` numbers them; a 0/1 matrix's rows of zeros are no options); each primary item covered within its bounds (exactly once without);
each secondary item in at most one option, or in options of one color (a variable per color,
after the options); LP and OPB minimise the options' total cost. CNF asks whether a solution
exists: its models, on the x variables, are the solutions (cardinalities by Sinz's sequential
counter). The file opens with comments naming the variables.

Examples:
  dancecard export --to lp testdata/instances/cost_domino6x6.dlx > domino.lp
  dancecard export --to opb testdata/instances/cost_pent6x10.dlx > pent.opb
  dancecard export --to cnf testdata/instances/queens8.dlx > queens8.cnf
"
)]
pub(crate) struct Args {
    /// The problem file; `-` or nothing reads standard input.
    pub(crate) file: Option<PathBuf>,
    /// The format to write.
    #[arg(long, value_enum)]
    pub(crate) to: To,
    #[command(flatten)]
    pub(crate) problem_format: crate::input::ProblemFormat,
}

/// `--to` of `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum To {
    /// CPLEX LP: a 0/1 program minimising the total cost.
    Lp,
    /// OPB: pseudo-Boolean constraints and the cost to minimise.
    Opb,
    /// DIMACS CNF: the feasibility question (costs left out).
    Cnf,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let doc = args.problem_format.load(args.file.as_deref())?;
    let target = match args.to {
        To::Lp => Target::Lp,
        To::Opb => Target::Opb,
        To::Cnf => Target::Cnf,
    };
    output::print(&export(&doc.problem, target))?;
    Ok(ExitCode::from(FOUND))
}
