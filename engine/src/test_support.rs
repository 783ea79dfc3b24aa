//! Helpers shared by the unit tests.

use fers_core::registry::Registry;
use fers_core::Variant;

/// A variant of `variants/examples.ini`, by name.
pub(crate) fn example(name: &str) -> &'static Variant {
    let mut reg = Registry::new();
    for r in reg.load("examples.ini", include_str!("../../variants/examples.ini")) {
        r.expect("example variants load");
    }
    reg.get(name).expect("example variant")
}
