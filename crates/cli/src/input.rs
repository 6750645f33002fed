//! What the commands read: input files and standard input, problems, and the values of
//! flags that clap does not parse by itself (threads, sizes in bytes, counts that refuse
//! negative numbers with their range).
//!
//! Errors caused by the user's input are [`BadInput`]: `main` reports them with exit code 2.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;
use dancecard_engine::Heuristic;
use dancecard_format::{Document, InputFormat, Looks};

/// An error caused by the user's input: reported on stderr with exit code 2.
#[derive(Debug)]
pub(crate) struct BadInput(pub(crate) String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Makes a [`BadInput`] error.
pub(crate) fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// The item-choice heuristic, as a command-line value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Minimum remaining values: the first item with the fewest options (Knuth's "S").
    #[default]
    Mrv,
    /// The leftmost active item.
    Leftmost,
    /// Knuth's SSXCC: MRV with forced moves and dead options given up before a level is
    /// entered; a whole count walks SSXCC's tree on sparse sets, node for node.
    Ssxcc,
}

impl From<HeuristicArg> for Heuristic {
    fn from(h: HeuristicArg) -> Heuristic {
        match h {
            HeuristicArg::Mrv => Heuristic::Mrv,
            HeuristicArg::Leftmost => Heuristic::Leftmost,
            HeuristicArg::Ssxcc => Heuristic::Ssxcc,
        }
    }
}

/// Reads a whole input: a file, or stdin for `-` or no path.
pub(crate) fn read_input(path: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => {
            let mut bytes = std::fs::read(p)
                .map_err(|e| bad_input(format!("cannot read {}: {e}", p.display())))?;
            drop_bom(&mut bytes);
            Ok((bytes, p.display().to_string()))
        }
    }
}

fn read_stdin() -> anyhow::Result<(Vec<u8>, String)> {
    let mut bytes = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    drop_bom(&mut bytes);
    Ok((bytes, "<stdin>".to_owned()))
}

/// Removes a UTF-8 byte-order mark at the start of an input (some editors write one).
fn drop_bom(bytes: &mut Vec<u8>) {
    let kept = dancecard_format::without_bom(bytes).len();
    bytes.drain(..bytes.len() - kept);
}

/// The most threads `--threads` accepts: far more than the cores of one machine (past
/// that, use shards or MPI), and few enough that starting them is quick.
pub(crate) const MAX_THREADS: usize = 1024;

/// Parses `--threads N`: 0 (one per core) to [`MAX_THREADS`].
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    if let Some(n) = text.trim().parse::<i64>().ok().filter(|&n| n < 0) {
        return Err(format!("{n} is not in 0..={MAX_THREADS}"));
    }
    let n: usize = text.trim().parse().map_err(|_| format!("not a number of threads: `{text}`"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads (0 means one per core), not {n}"));
    }
    Ok(n)
}

/// `--threads N` as a number of threads: 0 means one per core.
pub(crate) fn threads_or_cores(n: usize) -> usize {
    if n == 0 {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        n
    }
}

/// Parses a number of bytes with an optional suffix `K`, `M`, `G` or `T` (powers of 1024;
/// `KB`, `MiB`... also accepted): `--memo-limit 512M`.
pub(crate) fn parse_bytes(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| format!("not a number of bytes: `{text}`"))?;
    let shift = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("unknown unit in `{text}`: use K, M, G or T")),
    };
    n.checked_mul(1 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("too many bytes: `{text}`"))
}

/// Reads a whole input as UTF-8 text: a file, or stdin for `-` or no path.
pub(crate) fn read_text(path: Option<&Path>) -> anyhow::Result<(String, String)> {
    let (bytes, name) = read_input(path)?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad_input(format!("{name}: not UTF-8 text")))?;
    Ok((text, name))
}

/// Reads a whole input as UTF-8 text, as [`read_text`]; an input with nothing but blank lines
/// is a bad-input error (as in `sudoku` and `slide`), not an empty answer.
pub(crate) fn read_nonempty_text(path: Option<&Path>) -> anyhow::Result<(String, String)> {
    let (text, name) = read_text(path)?;
    if text.trim().is_empty() {
        return Err(bad_input(format!("{name}: the input is empty")));
    }
    Ok((text, name))
}

/// The directory for cached data (pattern databases): `$DANCECARD_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/dancecard`, else `~/.cache/dancecard`.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    let non_empty = |v: std::ffi::OsString| (!v.is_empty()).then(|| PathBuf::from(v));
    if let Some(dir) = std::env::var_os("DANCECARD_CACHE_DIR").and_then(non_empty) {
        return Some(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").and_then(non_empty) {
        return Some(dir.join("dancecard"));
    }
    std::env::var_os("HOME").and_then(non_empty).map(|h| h.join(".cache").join("dancecard"))
}

/// How a problem file is written (`--matrix`, `--dlx`, `--ec`), for the commands that read
/// one.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct ProblemFormat {
    /// Read a 0/1 matrix (detected when not given).
    #[arg(long, conflicts_with_all = ["dlx", "ec"])]
    pub(crate) matrix: bool,
    /// Read Knuth's DLX format (detected when not given).
    #[arg(long, conflicts_with = "ec")]
    pub(crate) dlx: bool,
    /// Read the `.ec` format of Nishino et al.'s benchmark: `p ec N`, then `s i j ...`
    /// options (detected when not given).
    #[arg(long)]
    pub(crate) ec: bool,
}

impl ProblemFormat {
    /// Reads and parses a problem: a file, or stdin for `-` or none; as a 0/1 matrix, in DLX
    /// or `.ec` format, or detected.
    pub(crate) fn load(self, file: Option<&Path>) -> anyhow::Result<Document> {
        load_document(file, self)
    }
}

/// Reads and parses a problem: a file, or stdin for `-` or none; as a 0/1 matrix, in DLX
/// or `.ec` format, or detected.
fn load_document(file: Option<&Path>, format: ProblemFormat) -> anyhow::Result<Document> {
    let (bytes, name) = read_input(file)?;
    let parsed = if format.matrix {
        dancecard_format::parse_matrix(&bytes)
    } else if format.dlx {
        dancecard_format::parse_dlx(&bytes)
    } else if format.ec {
        dancecard_format::parse_ec(&bytes)
    } else {
        dancecard_format::parse_auto(&bytes).map(|(d, _): (Document, InputFormat)| d)
    };
    parsed.map_err(|e| {
        // What reads an input that no format here reads, by what it looks like.
        let file = file.map_or("-".into(), |f| f.display().to_string());
        let hint = match e.looks() {
            Some(Looks::Sudoku) => {
                format!("\nhint: `dancecard sudoku {file}` solves sudoku puzzles")
            }
            Some(Looks::Ec) => {
                "\nhint: `--ec` reads the .ec format alone, `--dlx` DLX alone".into()
            }
            Some(Looks::Matrix) => {
                "\nhint: `--matrix` reads a 0/1 matrix alone, `--dlx` DLX alone".into()
            }
            _ => String::new(),
        };
        bad_input(format!("{name}: {e}{hint}"))
    })
}

/// The unsigned integer types of counts on the command line, with their largest value.
pub(crate) trait Count: std::str::FromStr<Err = std::num::ParseIntError> {
    /// The largest value.
    const MAX: u128;
}

macro_rules! count_types {
    ($($t:ty),*) => {
        $(impl Count for $t {
            const MAX: u128 = <$t>::MAX as u128;
        })*
    };
}
count_types!(u16, u32, u64, usize, u128);

/// Parses a count of type `T` (the value parser of every numeric flag and argument): a
/// negative number is refused with the range, `-3 is not in 0..=4294967295` (clap would take
/// it for a flag and suggest `-- -3`), as is a number past `T`'s largest value for the small
/// types; other text is refused as Rust's parser refuses it.
pub(crate) fn parse_count<T: Count>(text: &str) -> Result<T, String> {
    count_in(text, 0, T::MAX)
}

/// Parses a size N of a model: as [`parse_count`], a negative number is refused with the range the
/// model accepts, `1..=MAX` (the model itself refuses 0 and numbers past `MAX`, with its own
/// words).
pub(crate) fn parse_size<const MAX: usize>(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 0 => Err(format!("{n} is not in 1..={MAX}")),
        _ => parse_count(text),
    }
}

/// The most probes of an estimate (as the Python package's `estimate(probes=...)`): far more
/// than any estimate needs, few enough that a mistaken huge number is no endless run.
pub(crate) const MAX_PROBES: u64 = 1_000_000_000;

/// Parses `--probes N`: 1 to [`MAX_PROBES`] (no probe makes no estimate).
pub(crate) fn parse_probes(text: &str) -> Result<u64, String> {
    count_in(text, 1, u128::from(MAX_PROBES))
}

fn count_in<T: Count>(text: &str, min: u128, max: u128) -> Result<T, String> {
    if let Ok(n) = text.parse::<i64>() {
        // As clap's own ranged parser of the small types.
        if n < min as i64 || (max <= i64::MAX as u128 && n as u128 > max) {
            return Err(format!("{n} is not in {min}..={max}"));
        }
    }
    text.parse::<T>().map_err(|e| e.to_string())
}
