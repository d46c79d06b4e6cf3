//! How an answer of the evaluation suite is scored: shared by `cargo xtask
//! eval` and the smoke test in `tests/eval.rs` (each includes this file), so
//! both judge alike.

/// Whether `answer` holds `word` as a whole word, case ignored: the
/// characters around it are not letters, digits or `_`, nor a `.` or `-`
/// that joins more of them, so `8472` is not found in `84720`, `1.0` is not
/// found in `1.0.15`, and `main.rs` is found in `src/main.rs.`
pub fn has_word(answer: &str, word: &str) -> bool {
    let answer = answer.to_lowercase();
    let word = word.to_lowercase();
    let is_word_char = |c: char| c.is_alphanumeric() || c == '_';
    let joins =
        |c: char, next: Option<char>| is_word_char(c) || (matches!(c, '.' | '-') && next.is_some_and(is_word_char));
    let mut from = 0;
    while let Some(at) = answer[from..].find(&word) {
        let start = from + at;
        let end = start + word.len();
        let mut before = answer[..start].chars().rev();
        let (before, before_that) = (before.next(), before.next());
        let mut after = answer[end..].chars();
        let (after, after_that) = (after.next(), after.next());
        if !before.is_some_and(|c| joins(c, before_that)) && !after.is_some_and(|c| joins(c, after_that)) {
            return true;
        }
        from = start + answer[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Right when the answer holds every word of `expect` and, if `any` is not
/// empty, one of `any`.
pub fn is_right(answer: &str, expect: &[String], any: &[String]) -> bool {
    expect.iter().all(|word| has_word(answer, word))
        && (any.is_empty() || any.iter().any(|word| has_word(answer, word)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only_case_ignored() {
        assert!(has_word("It listens on port 8472.", "8472"));
        assert!(!has_word("port 84720", "8472"));
        assert!(has_word("see src/main.rs", "main.rs"));
        assert!(!has_word("see src/main.rsx", "main.rs"));
        assert!(has_word("License: mit", "MIT"));
        assert!(!has_word("submit", "MIT"));
        assert!(has_word("read_gauge_level()", "read_gauge_level"));
        assert!(!has_word("my_read_gauge_level", "read_gauge_level"));
        assert!(has_word("ünïcode 5 x", "5"));
        assert!(!has_word("serde 1.0.15", "1.0"), "a longer version is another version");
        assert!(has_word("serde 1.0.", "1.0"), "a full stop ends a sentence");
        assert!(has_word("listed in data/stations.csv", "data"));
    }

    #[test]
    fn every_expected_word_and_one_of_any() {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert!(is_right("tidepool 0.4.2", &words(&["tidepool", "0.4.2"]), &[]));
        assert!(!is_right("tidepool", &words(&["tidepool", "0.4.2"]), &[]));
        assert!(is_right("seven lines", &[], &words(&["7", "seven"])));
        assert!(!is_right("six lines", &[], &words(&["7", "seven"])));
    }
}
