//! A real GUI: Debian's XBoard, under Xvfb, plays a game between two fers
//! engines on an engine-defined fairy variant (`tests/gui/fers-fairy.ini`,
//! a name XBoard does not know: fers describes it with `setup` and `piece`
//! lines), through `tests/gui/xboard_fairy.sh`, which also takes the
//! screenshots (`target/xboard-gui/opening.png`, `final.png`).
//!
//! Needs xboard, Xvfb, xwd and convert: the skip rule of
//! `fers_tests::require` applies (a failure under CI, where `.ci/run`
//! installs them).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One GUI game at a time: each runs XBoard and two engines on their
/// clocks, and two at once on a 2-core machine lost games on time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs the script with `env` on `fers`; its stdout, checked for `OK: `.
fn play(fers: &Path, out_dir: &Path, env: &[(&str, &str)]) -> String {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join("gui").join("xboard_fairy.sh"))
        .arg(fers)
        .arg(out_dir)
        .arg("8")
        .envs(env.iter().copied())
        .output()
        .expect("run xboard_fairy.sh");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
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
    stdout
}

fn target_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join(name)
}

#[test]
fn xboard_plays_an_engine_defined_variant_with_fers() {
    let test = "xboard_plays_an_engine_defined_variant_with_fers";
    if fers_tests::require::xboard_gui(test).is_none() {
        return;
    }
    let Some(fers) = fers_tests::require::fers(test) else {
        return;
    };
    play(&fers, &target_dir("xboard-gui"), &[]);
}

/// A game whose pieces Betza cannot describe (kangaroos, contra-hoppers):
/// fers tells XBoard (`telluser`) that its legality test must be off, and
/// with it off (`-testLegality false`) the whole game is played, fers
/// claiming the result itself.
#[test]
fn xboard_plays_a_game_it_cannot_check_with_its_test_off() {
    let test = "xboard_plays_a_game_it_cannot_check_with_its_test_off";
    if fers_tests::require::xboard_gui(test).is_none() {
        return;
    }
    let Some(fers) = fers_tests::require::fers(test) else {
        return;
    };
    let ini = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../variants/examples.ini");
    let dir = target_dir("xboard-gui-hoppers");
    let ini = ini.to_string_lossy().into_owned();
    play(
        &fers,
        &dir,
        &[
            ("FERS_XBOARD_VARIANT", "hopper-zoo"),
            ("FERS_XBOARD_INI", &ini),
            ("FERS_XBOARD_ARGS", "-testLegality false"),
        ],
    );
    let debug = std::fs::read_to_string(dir.join("xboard.debug")).expect("XBoard's debug log");
    assert!(
        debug.contains("telluser fers: Betza cannot express kangaroo"),
        "fers did not ask for the test to be off"
    );
}
