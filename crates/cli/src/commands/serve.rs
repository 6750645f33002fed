//! `dancecard serve`: the web explorer (the JSON API and the teaching page) on this machine.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Command, ExitCode, Stdio};

use crate::output::say;
use anyhow::Context;
use dancecard_web::ServerConfig;

/// Serve the web explorer: a page that teaches exact cover and Dancing Links with the real
/// engine, and its JSON API (see docs/web-api.md). Stops on Ctrl-C.
#[derive(Debug, clap::Args)]
#[command(after_help = "The server has no authentication: it binds 127.0.0.1 unless --host says
otherwise. Every request is bounded: its body (--max-body), its answer (--max-reply: lists
stop there with \"stop\": \"reply-limit\"), its search's time and nodes, and the memory it
reserves from the budget (--max-memory) before it starts; requests beyond --max-requests,
or that cannot reserve their memory or a search slot within 2 s, get 503. With the defaults
the server's resident memory stays under about 300 MB. Sizes take K, M or G (powers of
1024).

Examples:
  dancecard serve                 # http://127.0.0.1:8000/
  dancecard serve --port 0 --open # a free port, opened in the default browser
  dancecard serve --count-time-limit 60 --node-limit 1000000000  # longer counts
  curl -s --data-binary @testdata/instances/queens8.dlx 'http://127.0.0.1:8000/api/solve?mode=count'")]
pub(crate) struct Args {
    /// The port to listen on (0 picks a free one).
    #[arg(long, value_name = "P", default_value_t = 8000, allow_negative_numbers = true, value_parser = crate::input::parse_count::<u16>)]
    pub(crate) port: u16,
    /// The address to bind. Anything but a loopback address exposes the server to the
    /// network.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub(crate) host: IpAddr,
    /// Open the page in the default browser (with xdg-open; if that fails, only print the URL).
    #[arg(long)]
    pub(crate) open: bool,
    /// Time budget of one search, in seconds; past it the answer holds what was found, with
    /// `"complete": false`.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, allow_negative_numbers = true)]
    pub(crate) time_limit: f64,
    /// Time budget of a count of a puzzle's solutions (`mode=count` of the sudoku, queens and
    /// tiling endpoints), in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, allow_negative_numbers = true)]
    pub(crate) count_time_limit: f64,
    /// Node budget of one search.
    #[arg(long, value_name = "N", default_value_t = 50_000_000, allow_negative_numbers = true, value_parser = crate::input::parse_count::<u64>)]
    pub(crate) node_limit: u64,
    /// Largest request body; a larger one gets 413.
    #[arg(long, value_name = "SIZE", default_value = "1M", value_parser = parse_size, allow_negative_numbers = true)]
    pub(crate) max_body: usize,
    /// Largest answer: lists (solutions, trace events, tilings) stop there, and an answer
    /// that cannot be cut (a problem's description) gets 413.
    #[arg(long, value_name = "SIZE", default_value = "4M", value_parser = parse_size, allow_negative_numbers = true)]
    pub(crate) max_reply: usize,
    /// The memory budget: what the requests in progress may reserve together (their bodies,
    /// their searches' estimated work, their answers until sent).
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size, allow_negative_numbers = true)]
    pub(crate) max_memory: usize,
    /// Searches running at once [default: 4 per core, at least 8: a few searches that run to
    /// their budget do not keep the quick ones waiting].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub(crate) max_searches: Option<u32>,
    /// API requests in progress at once; one more gets 503.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub(crate) max_requests: u32,
    /// Connections open at once; more clients wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
    pub(crate) max_connections: u32,
}

/// A size in bytes: a number, optionally followed by `K`, `M` or `G` (powers of 1024; `KiB`,
/// `MB` and such read the same).
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("`{text}` is not a size: write bytes, or a number and K, M or G")),
    };
    let n: usize = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size: write bytes, or a number and K, M or G"))?;
    match n.checked_mul(1 << shift) {
        Some(0) => Err("a size must be more than 0".to_owned()),
        Some(bytes) => Ok(bytes),
        None => Err(format!("`{text}` is too large")),
    }
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr = SocketAddr::new(args.host, args.port);
    if !args.host.is_loopback() {
        say!("warning: binding {}: the server has no authentication", args.host);
    }
    let budget = |seconds: f64, flag: &str| -> anyhow::Result<std::time::Duration> {
        std::time::Duration::try_from_secs_f64(seconds).map_err(|_| {
            crate::input::bad_input(format!("{flag} must be a number of seconds, not {seconds}"))
        })
    };
    let mut config = ServerConfig::default();
    config.time_limit = budget(args.time_limit, "--time-limit")?;
    config.count_time_limit = budget(args.count_time_limit, "--count-time-limit")?;
    config.max_nodes = args.node_limit;
    config.max_body_bytes = args.max_body;
    config.max_reply_bytes = args.max_reply;
    config.max_memory_bytes = args.max_memory;
    if let Some(n) = args.max_searches {
        config.max_searches = n as usize;
    }
    config.max_requests = args.max_requests as usize;
    config.max_connections = args.max_connections as usize;
    dancecard_web::serve(addr, config, |bound| {
        let url = format!("http://{bound}/");
        // The server is the answer: a closed stdout (`serve | head -1`) does not stop it.
        let _ =
            crate::output::print(&format!("dancecard serve: listening on {url} (Ctrl-C stops)\n"));
        if args.open && !open_browser(&url) {
            let _ =
                crate::output::print(&format!("could not start a browser: open {url} yourself\n"));
        }
    })
    .with_context(|| format!("cannot serve on {addr}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Asks the desktop to open `url`; false if `xdg-open` is missing or fails.
fn open_browser(url: &str) -> bool {
    Command::new("xdg-open")
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_bytes_and_binary_units() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("4M"), Ok(4 << 20));
        assert_eq!(parse_size("4MiB"), Ok(4 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        for bad in ["", "M", "4X", "-1", "1.5M", "0", "99999999999999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
