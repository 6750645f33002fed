//! `dancecard serve`: the web explorer (the JSON API and the teaching page) on this machine.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Command, ExitCode, Stdio};

use anyhow::Context;
use dancecard_web::ServerConfig;

/// Serve the web explorer: a page that teaches exact cover and Dancing Links with the real
/// engine, and its JSON API (see README.md). Stops on Ctrl-C.
#[derive(Debug, clap::Args)]
#[command(after_help = "The server has no authentication: it binds 127.0.0.1 unless --host says
otherwise. Every request is bounded (1 MB bodies, a time and node budget per search, a
few searches at once).

Examples:
  dancecard serve                 # http://127.0.0.1:8000/
  dancecard serve --port 0 --open # a free port, opened in the default browser
  dancecard serve --count-time-limit 60 --node-limit 1000000000  # longer counts
  curl -s --data-binary @testdata/instances/queens8.dlx 'http://127.0.0.1:8000/api/solve?mode=count'")]
pub(crate) struct Args {
    /// The port to listen on (0 picks a free one).
    #[arg(long, value_name = "P", default_value_t = 8000)]
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
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub(crate) time_limit: f64,
    /// Time budget of a count of a puzzle's solutions (`mode=count` of the sudoku, queens and
    /// tiling endpoints), in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) count_time_limit: f64,
    /// Node budget of one search.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    pub(crate) node_limit: u64,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    let addr = SocketAddr::new(args.host, args.port);
    if !args.host.is_loopback() {
        eprintln!("warning: binding {}: the server has no authentication", args.host);
    }
    let budget = |seconds: f64, flag: &str| -> anyhow::Result<std::time::Duration> {
        std::time::Duration::try_from_secs_f64(seconds).map_err(|_| {
            crate::util::bad_input(format!("{flag} must be a number of seconds, not {seconds}"))
        })
    };
    let mut config = ServerConfig::default();
    config.time_limit = budget(args.time_limit, "--time-limit")?;
    config.count_time_limit = budget(args.count_time_limit, "--count-time-limit")?;
    config.max_nodes = args.node_limit;
    dancecard_web::serve(addr, config, |bound| {
        let url = format!("http://{bound}/");
        println!("dancecard serve: listening on {url} (Ctrl-C stops)");
        if args.open && !open_browser(&url) {
            println!("could not start a browser: open {url} yourself");
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
