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
