//! A real GUI: Debian's XBoard, under Xvfb, plays a game between two fers
//! engines on an engine-defined fairy variant (`tests/gui/fers-fairy.ini`,
//! a name XBoard does not know: fers describes it with `setup` and `piece`
//! lines), through `tests/gui/xboard_fairy.sh`, which also takes the
//! screenshots (`target/xboard-gui/opening.png`, `final.png`).
//!
//! Needs xboard, Xvfb, xwd and convert: the skip rule of
//! `fers_tests::require` applies (a failure under CI, where `.ci/run`
//! installs them).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn xboard_plays_an_engine_defined_variant_with_fers() {
    let test = "xboard_plays_an_engine_defined_variant_with_fers";
    if fers_tests::require::xboard_gui(test).is_none() {
        return;
    }
    let Some(fers) = fers_tests::require::fers(test) else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out_dir = root.join("..").join("target").join("xboard-gui");
    let out = Command::new(root.join("gui").join("xboard_fairy.sh"))
        .arg(&fers)
        .arg(&out_dir)
        .arg("10")
        .output()
        .expect("run xboard_fairy.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.starts_with("OK: "),
        "xboard_fairy.sh failed ({:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
    for shot in ["opening.png", "final.png"] {
        let len = std::fs::metadata(out_dir.join(shot)).map_or(0, |m| m.len());
        assert!(len > 10_000, "{shot} is {len} bytes: no board on it?");
    }
}
