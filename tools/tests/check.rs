//! fers-check on good and broken variant files.

use std::process::Command;

fn check(files: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fers-check"))
        .args(files)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn examples_file_is_valid() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/examples.ini");
    let (code, out) = check(&[path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().count() >= 12);
    assert!(out.lines().all(|l| l.starts_with("ok ")), "{out}");
    assert!(out.contains("ok capablanca 10x8 plain"), "{out}");
}

#[test]
fn broken_sections_are_reported_and_the_rest_loads() {
    let dir = std::env::temp_dir().join(format!("fers-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.ini");
    std::fs::write(&file, "[a:chess]\nfoo = 1\n\n[b:chess]\npiece.z = zebra\n").unwrap();
    let (code, out) = check(&[file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("error {}:2: unknown key 'foo'", file.display())),
        "{out}"
    );
    assert!(out.contains("ok b 8x8"), "{out}");
    let (code, _) = check(&["/nonexistent/file.ini"]);
    assert_eq!(code, 2);
}
