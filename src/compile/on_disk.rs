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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceKind;

    fn doc(dir: &std::path::Path) -> Canonical {
        let value = serde_json::json!({"deny": ["rm", "sudo"], "ask": [], "n": 1});
        Canonical::new(SourceKind::Bash, dir.join("out.json"), value)
    }

    fn matches_with(content: Option<&str>) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let doc = doc(dir.path());
        if let Some(text) = content {
            std::fs::write(&doc.output, text).unwrap();
        }
        doc.matches_output().unwrap()
    }

    #[test]
    fn the_written_bytes_or_an_equal_value_match() {
        let dir = tempfile::tempdir().unwrap();
        let written = doc(dir.path()).text();
        assert!(matches_with(Some(&written)));
        assert!(matches_with(Some(
            r#"{"n": 1.0, "ask": [], "deny": ["rm", "sudo"]}"#
        )));
    }

    #[test]
    fn another_value_a_reordered_list_non_json_or_no_file_is_drift() {
        assert!(!matches_with(Some(
            r#"{"deny": ["sudo", "rm"], "ask": [], "n": 1}"#
        )));
        assert!(!matches_with(Some(
            r#"{"deny": ["rm", "sudo"], "ask": []}"#
        )));
        assert!(!matches_with(Some("not json\n")));
        assert!(!matches_with(None));
    }

    #[test]
    fn a_directory_in_the_output_place_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let doc = doc(dir.path());
        std::fs::create_dir(&doc.output).unwrap();
        let err = doc.matches_output().unwrap_err();
        assert!(err.to_string().contains("out.json"), "{err}");
        assert_eq!(err.exit_code(), 1);
    }
}
