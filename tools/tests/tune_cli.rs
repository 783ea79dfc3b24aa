//! fers-tune: on a small sample of Stockfish-labelled positions the fit
//! lowers the training loss and writes a `tuned.rs` that declares `PARAMS`.

use std::path::Path;
use std::process::Command;

/// The loss figures printed after `loss ` on the stderr lines.
fn losses(text: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|l| l.split("loss ").nth(1))
        .filter_map(|r| r.split([',', ')']).next())
        .filter_map(|v| v.trim().parse().ok())
        .collect()
}

#[test]
fn tuning_lowers_the_loss_and_writes_rust() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tune-sample.txt");
    let out_rs = std::env::temp_dir().join(format!("fers-tune-test-{}.rs", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_fers-tune"))
        .arg(&out_rs)
        .arg(&sample)
        .args([
            "-rounds",
            "1",
            "-threads",
            "1",
            "-pst-only",
            "-min-seen",
            "5",
        ])
        .output()
        .expect("run fers-tune");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("540 training, 60 hold-out positions"), "{err}");
    let l = losses(&err);
    assert!(l.len() >= 2, "{err}");
    let (first, last) = (l[0], *l.last().unwrap());
    assert!(last < first, "training loss {first} -> {last}\n{err}");
    let rs = std::fs::read_to_string(&out_rs).expect("tuned.rs written");
    let _ = std::fs::remove_file(&out_rs);
    assert!(rs.contains("pub const PARAMS: Params = Params {"), "{rs}");
    assert!(rs.contains("ortho_pst: [["), "{rs}");
}

#[test]
fn usage_without_arguments() {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-tune"))
        .output()
        .expect("run fers-tune");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: fers-tune"));
}

/// `-only`: the named scalars are the only ones tried (the log lists each
/// scalar it fits), and the piece-square corrections are left alone.
#[test]
fn only_fits_the_named_scalars() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tune-sample.txt");
    let out_rs = std::env::temp_dir().join(format!("fers-tune-only-{}.rs", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_fers-tune"))
        .arg(&out_rs)
        .arg(&sample)
        .args(["-rounds", "1", "-threads", "1", "-only", "space,backward"])
        .output()
        .expect("run fers-tune");
    let _ = std::fs::remove_file(&out_rs);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let fitted: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split(':').next())
        .collect();
    assert_eq!(fitted, ["backward.mg", "backward.eg", "space"], "{err}");
}

/// `tools/py/gen_tune_data.py` never adds to an existing data file: it
/// refuses one (and leaves it as it was), and `--force` truncates it, so
/// two identical runs give identical files.
#[test]
fn gen_tune_data_refuses_or_truncates_an_existing_file() {
    let test = "gen_tune_data_refuses_or_truncates_an_existing_file";
    let Some(py) = fers_tests::require::python_with(test, &["chess", "chess.engine"], "chess")
    else {
        return;
    };
    let Some(stockfish) = fers_tests::require::stockfish(test) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("py/gen_tune_data.py");
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let out = dir.join(format!("fers-gen-tune-{id}.txt"));
    let openings = dir.join(format!("fers-gen-tune-{id}.epd"));
    std::fs::write(
        &openings,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    std::fs::write(&out, "an earlier run\n").unwrap();
    let run = |force: bool| {
        let mut cmd = Command::new(&py);
        cmd.arg(&script)
            .args(["0", "1"])
            .arg(&out)
            .args(["--depth", "1", "--random", "0"])
            .arg("--openings")
            .arg(&openings)
            .arg("--stockfish")
            .arg(&stockfish);
        if force {
            cmd.arg("--force");
        }
        cmd.output().expect("run gen_tune_data.py")
    };
    let refused = run(false);
    let err = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("exists"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "an earlier run\n");
    let first = run(true);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let a = std::fs::read_to_string(&out).unwrap();
    let second = run(true);
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let b = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&openings);
    assert!(!a.contains("an earlier run"), "{a}");
    assert!(a.lines().count() > 5, "positions written: {a}");
    for l in a.lines() {
        let (fen, cp) = l.split_once(';').expect("FEN;score");
        assert_eq!(fen.split_whitespace().count(), 6, "{l}");
        cp.parse::<i32>().expect("centipawns");
    }
    assert_eq!(
        a, b,
        "a second --force run gives the same file, not twice as much"
    );
}
