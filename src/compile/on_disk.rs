//! Whether a canonical output file on disk holds the compiled document.

use serde_json::Value;

use super::Canonical;
use crate::compose::equality_key;
use crate::error::{Error, Result};

impl Canonical {
    /// The output file holds this document: its exact bytes, or JSON equal
    /// to it as Python's `==` decides (key order free, list order not). A
    /// missing, unreadable, non-regular or non-JSON file does not match. A
    /// directory is an error: `generate -w` could not replace it, so calling
    /// it drift would send the user to a command that fails.
    pub fn matches_output(&self) -> Result<bool> {
        if std::fs::metadata(&self.output).is_ok_and(|m| m.is_dir()) {
            return Err(Error::target(
                &self.output,
                "is a directory, not a canonical output file; remove it or change `output`",
            ));
        }
        let Ok(Some(on_disk)) = crate::apply::read_existing(&self.output) else {
            return Ok(false);
        };
        Ok(on_disk == self.text().as_bytes()
            || serde_json::from_slice::<Value>(&on_disk)
                .is_ok_and(|v| equality_key(&v) == equality_key(&self.value)))
    }
}
