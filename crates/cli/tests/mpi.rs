//! `dancecard solve --count --mpi` under `mpirun` (only with the `mpi` feature).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{stderr, stdout, testdata};

fn mpirun(np: usize, args: &[&str], dir: &Path) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--allow-run-as-root", "--oversubscribe", "-np", &np.to_string()])
        .arg(assert_cmd::cargo::cargo_bin("dancecard"))
        .args(["solve", "--count", "--mpi"])
        .args(args)
        .current_dir(dir)
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
    cmd
}

#[test]
fn three_ranks_equal_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    for (instance, total) in [("queens12", "14200\n"), ("domino6x6", "6728\n")] {
        let file = testdata(&format!("instances/{instance}.dlx"));
        let out = mpirun(3, &[file.to_str().unwrap()], dir.path()).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), total);
        let checkpoint =
            std::fs::read_to_string(dir.path().join("dancecard-checkpoint.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&checkpoint).unwrap();
        assert_eq!(v["complete"], true);
        assert_eq!(v["pending"].as_array().map(Vec::len), Some(0));
        assert_eq!(v["count"], total.trim());
        assert!(v["nodes"].as_u64().unwrap() > 0);
    }
}

/// The pid of the process of `rank` under the `mpirun` whose pid is `mpirun`.
fn rank_pid(rank: u32) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { continue };
        let is_ours = String::from_utf8_lossy(&cmdline).contains("dominoes8x9.dlx")
            && String::from_utf8_lossy(&cmdline).contains("dancecard");
        let marker = format!("OMPI_COMM_WORLD_RANK={rank}");
        if is_ours && environ.split(|&b| b == 0).any(|v| v == marker.as_bytes()) {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_killed_worker_fails_the_job_and_resume_reaches_the_total() {
    let dir = tempfile::tempdir().unwrap();
    // Dominoes on 8 x 9 (108,435,745 tilings; 9 s on one core): long enough to be killed in
    // the middle (pent6x10 is counted before its first checkpoint with progress is saved).
    let file = dir.path().join("dominoes8x9.dlx");
    std::fs::write(&file, dancecard_testkit::dominoes(8, 9)).unwrap();
    let checkpoint = dir.path().join("run.json");
    let args = [file.to_str().unwrap(), "--checkpoint", checkpoint.to_str().unwrap()];
    let job =
        mpirun(3, &args, dir.path()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Wait until some work is counted (the checkpoint's nodes), then kill worker 1.
    let started = Instant::now();
    let done = |path: &Path| -> u64 {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["nodes"].as_u64())
            .unwrap_or(0)
    };
    while done(&checkpoint) == 0 {
        assert!(started.elapsed() < Duration::from_secs(120), "nothing counted in time");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = rank_pid(1).expect("worker 1 is running");
    let killed = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(killed.success());
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job must fail when a worker dies");
    assert_eq!(stdout(&out), "", "no total from a failed job");
    assert!(done(&checkpoint) > 0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(v["complete"], false);
    assert!(!v["pending"].as_array().unwrap().is_empty());

    let resume = [file.to_str().unwrap(), "--resume", checkpoint.to_str().unwrap()];
    let out = mpirun(3, &resume, dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "108435745\n");

    // A checkpoint of another search is refused.
    let other = testdata("instances/queens8.dlx");
    let wrong = [other.to_str().unwrap(), "--resume", checkpoint.to_str().unwrap()];
    let out = mpirun(2, &wrong, dir.path()).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("another search"), "{}", stderr(&out));
}

/// Without a launcher, `--mpi` counts in this one process (no MPI start-up) with the same
/// coordinator: the checkpoint, the node limit and `--resume` work as under `mpirun`.
#[test]
fn one_process_without_mpirun_counts_checkpoints_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = testdata("instances/pent6x10.dlx");
    let checkpoint = dir.path().join("run.json");
    let run = |extra: &[&str]| {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dancecard"));
        cmd.args(["solve", "--count", "--method", "search", "--mpi"]).arg(&file).args(extra);
        cmd.current_dir(dir.path()).output().unwrap()
    };
    let cp = checkpoint.to_str().unwrap();
    let out = run(&["--checkpoint", cp, "--node-limit", "500000"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["nodes"].as_u64().unwrap() >= 500_000);
    let out = run(&["--resume", cp]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "9356\n");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert_eq!(v["complete"], true);
}
