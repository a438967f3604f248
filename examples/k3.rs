use kxo_tui::ai::Solver;
use kxo_tui::game::{Position, Rules};
fn main() {
    let rules = Rules::new(4, 3).unwrap();
    let pos = Position::new(rules);
    let t = std::time::Instant::now();
    let mut nodes = 0;
    for _ in 0..20000 {
        let a = Solver::new(rules).solve(std::hint::black_box(&pos)).unwrap();
        nodes += a.nodes;
    }
    println!("{:?} per solve, {} nodes", t.elapsed() / 20000, nodes / 20000);
    let mut s = Solver::new(rules);
    let t = std::time::Instant::now();
    for _ in 0..20000 {
        std::hint::black_box(s.solve(std::hint::black_box(&pos)).unwrap());
    }
    println!("{:?} per solve, warm", t.elapsed() / 20000);
    let t = std::time::Instant::now();
    for _ in 0..20000 {
        std::hint::black_box(Solver::new(rules));
    }
    println!("{:?} per new", t.elapsed() / 20000);
}
