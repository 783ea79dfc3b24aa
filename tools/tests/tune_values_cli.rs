//! `fers-tune -values` as a user runs it: self-play lines of Capablanca
//! chess (a variant file) in, variant-file lines out that the variant file
//! then accepts; bad input is refused with a message and a failing status.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-tune"))
        .args(args)
        .output()
        .expect("fers-tune runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn capablanca_values_from_selfplay_lines() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    let dir = std::env::temp_dir().join(format!("fers-tune-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("capa.txt").display().to_string();
    // White a chancellor up wins, a pawn up draws; Black an archbishop up
    // wins: 600 games' worth of each, so that every kind out of balance is
    // fitted.
    let lines = [
        "r1abqkb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1;650;1",
        "rnabqkbcnr/ppppppppp1/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1;90;0.5",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RN1BQKBCNR w KQkq - 0 1;-600;0",
    ];
    let text: String = (0..600)
        .flat_map(|_| lines)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&data, text).expect("data written");
    let common = ["-variant", "capablanca", "-variantfile", examples];
    let mut args = vec!["-values", &data[..], "-iters", "300"];
    args.extend(common);
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    assert!(err.contains("1800 positions, 0 lines skipped"), "{err}");
    assert!(err.contains("held-out"), "{err}");
    for letter in ['p', 'a', 'c'] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("value.{letter} = ")))
            .unwrap_or_else(|| panic!("no value for {letter}:\n{out}"));
        let nums: Vec<i32> = line
            .split('=')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .map(|n| n.parse().expect("a number"))
            .collect();
        assert!(nums.len() == 2 && nums.iter().all(|&n| n > 0), "{line}");
    }
    // The lines go into a variant file as they are.
    let section = format!(
        "[capa-fitted:capablanca]\n{out}",
        out = out.lines().map(|l| format!("{l}\n")).collect::<String>()
    );
    let base = std::fs::read_to_string(examples).expect("examples");
    let sections =
        fers_core::variant_file::load("fitted.ini", &format!("{base}\n{section}"), &|_| None);
    let fitted = sections
        .iter()
        .find(|s| s.name == "capa-fitted")
        .expect("section");
    let v = fitted.result.as_ref().expect("the fitted lines load");
    assert!(v.pieces.iter().any(|p| p.value.is_some()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    for (args, words) in [
        (vec!["-values"], "usage"),
        (
            vec!["-values", "/nonexistent/data.txt"],
            "cannot read /nonexistent/data.txt",
        ),
        (
            vec!["-values", "x", "-variant", "nosuch"],
            "unknown variant 'nosuch'",
        ),
        (vec!["-values", "x", "-lambda", "2"], "bad value -lambda 2"),
        (
            vec!["-values", "x", "-frobnicate", "1"],
            "unknown option -frobnicate",
        ),
        (
            vec!["-values", "x", "-variantfile", examples, "-l2"],
            "-l2 needs a value",
        ),
    ] {
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}
