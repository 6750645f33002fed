use std::ops::ControlFlow;
use dancecard_engine::{MemoConfig, Solver};
fn a001499(n: usize, k: usize) -> String {
    let mut s = String::new();
    for r in 0..n { s += &format!("{k}|R{r} "); }
    for c in 0..n { s += &format!("{k}|C{c} "); }
    s += "\n";
    for r in 0..n { for c in 0..n { s += &format!("R{r} C{c}\n"); } }
    s
}
#[test]
fn scratch_n12() {
    for n in [8, 12] {
        let p = dancecard_format::parse_dlx(a001499(n, 2).as_bytes()).unwrap().problem;
        for _ in 0..3 {
        let t = std::time::Instant::now();
        let mut s = Solver::new(&p);
        let m = s.count_memo(&MemoConfig::default(), |_, _| ControlFlow::Continue(())).unwrap();
        println!("n={n}: {} nodes {} entries {} {:?}", m.count, m.stats.nodes, m.stats.entries, t.elapsed());
        }
    }
}
