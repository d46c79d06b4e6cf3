//! Quality gates: QA reports, acceptance criteria and the final bundle.

use amplifier_sdk::{json, Value};

use crate::action::extract_json;
use crate::state::{Constraints, CriterionResult, QaReport};

/// A specialist's answer as an artifact: its JSON object, or `{text}`.
pub fn artifact_from(answer: &str) -> Value {
    extract_json(answer).unwrap_or_else(|| json!({"text": answer}))
}

/// The deliverable text in a generation artifact: `draft.text`, `draft`,
/// `content`, `text`, or the artifact itself as JSON.
pub fn content_of(artifact: &Value) -> String {
    let pointers = ["/draft/text", "/draft/content", "/draft", "/content", "/text", "/result"];
    pointers
        .iter()
        .find_map(|p| artifact.pointer(p).and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| artifact.to_string())
}

/// Reads a QA specialist's answer: `{pass, score, issues}`, optionally under
/// `qa`, with the peer's aliases (`compliance`, `composite`,
/// `contentRecommendations`). `None` when it holds no report.
pub fn parse_qa(answer: &str, threshold: f64) -> Option<QaReport> {
    let json = extract_json(answer)?;
    let report = json.get("qa").filter(|qa| qa.is_object()).unwrap_or(&json);
    let score = report.get("score").or_else(|| report.get("composite")).and_then(Value::as_f64);
    let pass = report.get("pass").or_else(|| report.get("compliance")).and_then(Value::as_bool);
    if score.is_none() && pass.is_none() {
        return None;
    }
    let score = score.map(|s| s.clamp(0.0, 1.0)).unwrap_or(if pass == Some(true) { 1.0 } else { 0.0 });
    let pass = pass.unwrap_or(score >= threshold);
    let issues = ["issues", "contentRecommendations"]
        .iter()
        .find_map(|key| report.get(*key).and_then(Value::as_array))
        .map(|items| items.iter().map(|i| i.as_str().map(str::to_owned).unwrap_or_else(|| i.to_string())).collect())
        .unwrap_or_default();
    let criteria = match report.get("criteria") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| {
                Some(CriterionResult {
                    criterion: item.get("criterion")?.as_str()?.to_owned(),
                    passed: item.get("passed").or_else(|| item.get("pass"))?.as_bool()?,
                    details: item.get("details").and_then(Value::as_str).map(str::to_owned),
                })
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .filter_map(|(criterion, passed)| {
                Some(CriterionResult { criterion: criterion.clone(), passed: passed.as_bool()?, details: None })
            })
            .collect(),
        _ => Vec::new(),
    };
    Some(QaReport { pass, score, issues, criteria })
}

/// The quoted text in a criterion (`"…"` or `“…”`), checked literally.
fn quoted(criterion: &str) -> Option<&str> {
    for (open, close) in [('"', '"'), ('“', '”')] {
        if let Some(start) = criterion.find(open) {
            let rest = &criterion[start + open.len_utf8()..];
            if let Some(end) = rest.find(close) {
                return Some(&rest[..end]).filter(|q| !q.is_empty());
            }
        }
    }
    None
}

/// Evaluates the acceptance criteria: quoted text is checked literally
/// against the content (case-insensitive); otherwise the QA specialist's
/// verdict for that criterion, else its overall verdict.
pub fn evaluate_criteria(criteria: &[String], qa: Option<&QaReport>, content: &str) -> Vec<CriterionResult> {
    let lowered = content.to_lowercase();
    criteria
        .iter()
        .map(|criterion| {
            if let Some(text) = quoted(criterion) {
                let passed = lowered.contains(&text.to_lowercase());
                let details = format!("literal check for \"{text}\": {}", if passed { "found" } else { "not found" });
                return CriterionResult { criterion: criterion.clone(), passed, details: Some(details) };
            }
            let own = qa
                .and_then(|qa| qa.criteria.iter().find(|c| c.criterion.trim().eq_ignore_ascii_case(criterion.trim())));
            match (own, qa) {
                (Some(verdict), _) => CriterionResult {
                    criterion: criterion.clone(),
                    passed: verdict.passed,
                    details: verdict.details.clone().or_else(|| Some("QA verdict for this criterion".into())),
                },
                (None, Some(qa)) => CriterionResult {
                    criterion: criterion.clone(),
                    passed: qa.pass,
                    details: Some("from the QA verdict".into()),
                },
                (None, None) => CriterionResult {
                    criterion: criterion.clone(),
                    passed: false,
                    details: Some("not evaluated: QA was not performed".into()),
                },
            }
        })
        .collect()
}

/// Whether a QA round calls for a revision, and the notes to revise by.
pub fn revision_notes(qa: &QaReport, criteria: &[CriterionResult], threshold: f64) -> Option<Vec<String>> {
    let failed: Vec<&CriterionResult> = criteria.iter().filter(|c| !c.passed).collect();
    if qa.pass && qa.score >= threshold && failed.is_empty() {
        return None;
    }
    let mut notes = qa.issues.clone();
    if qa.score < threshold {
        notes.push(format!("quality score {} is below the threshold {threshold}", qa.score));
    }
    notes.extend(failed.iter().map(|c| format!("acceptance criterion not met: {}", c.criterion)));
    Some(notes)
}

/// What finalisation knows.
pub struct Outcome<'a> {
    pub content: Option<String>,
    pub qa: Option<&'a QaReport>,
    pub constraints: &'a Constraints,
    pub artifacts: Value,
    pub cycles: u32,
}

/// `{result, quality, acceptance-report}`.
pub fn bundle(outcome: &Outcome) -> Value {
    let threshold = outcome.constraints.quality_threshold;
    let content = outcome.content.clone().unwrap_or_default();
    let mut criteria = evaluate_criteria(&outcome.constraints.acceptance_criteria, outcome.qa, &content);
    let score_met = outcome.qa.is_some_and(|qa| qa.score >= threshold);
    criteria.push(CriterionResult {
        criterion: "content_generated".into(),
        passed: outcome.content.is_some(),
        details: outcome.content.is_none().then(|| "no specialist produced the deliverable".into()),
    });
    criteria.push(CriterionResult {
        criterion: "qa_performed".into(),
        passed: outcome.qa.is_some(),
        details: outcome.qa.is_none().then(|| "no QA specialist reviewed the deliverable".into()),
    });
    criteria.push(CriterionResult {
        criterion: "quality_threshold_met".into(),
        passed: score_met,
        details: Some(match outcome.qa {
            Some(qa) => format!("score {} against threshold {threshold}", qa.score),
            None => "no score".into(),
        }),
    });
    let overall = criteria.iter().all(|c| c.passed);
    let quality = match outcome.qa {
        Some(qa) => json!({
            "pass": qa.pass && score_met,
            "score": qa.score,
            "issues": qa.issues,
            "threshold": threshold,
            "cycles": outcome.cycles,
        }),
        None => json!({
            "pass": false,
            "score": null,
            "issues": ["QA was not performed"],
            "threshold": threshold,
            "cycles": outcome.cycles,
        }),
    };
    json!({
        "result": {"content": content, "artifacts": outcome.artifacts},
        "quality": quality,
        "acceptance-report": {"overall": overall, "criteria": criteria},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constraints(criteria: &[&str]) -> Constraints {
        Constraints {
            quality_threshold: 0.8,
            execution_depth: 2,
            acceptance_criteria: criteria.iter().map(|c| c.to_string()).collect(),
            max_turns: 20,
        }
    }

    #[test]
    fn qa_reports_parse_with_aliases() {
        let qa = parse_qa(r#"{"qa": {"pass": false, "score": 0.5, "issues": ["x"]}}"#, 0.8).unwrap();
        assert_eq!((qa.pass, qa.score, qa.issues.clone()), (false, 0.5, vec!["x".to_owned()]));
        let qa = parse_qa(r#"{"compliance": true, "composite": 1.7, "contentRecommendations": ["y"]}"#, 0.8).unwrap();
        assert_eq!((qa.pass, qa.score), (true, 1.0));
        assert_eq!(parse_qa("looks fine to me", 0.8), None);
    }

    #[test]
    fn criteria_use_literal_checks_then_qa_verdicts() {
        let qa =
            parse_qa(r#"{"pass": true, "score": 0.9, "criteria": [{"criterion": "is polite", "passed": false}]}"#, 0.8);
        let results = evaluate_criteria(
            &["mentions \"May 4\"".into(), "is polite".into(), "is short".into()],
            qa.as_ref(),
            "Out on may 4!",
        );
        let passed: Vec<bool> = results.iter().map(|r| r.passed).collect();
        assert_eq!(passed, [true, false, true]);
    }

    #[test]
    fn revisions_are_asked_for_low_scores_and_failed_criteria() {
        let qa = QaReport { pass: true, score: 0.5, issues: vec!["x".into()], criteria: vec![] };
        let notes = revision_notes(&qa, &[], 0.8).unwrap();
        assert_eq!(notes[0], "x");
        let good = QaReport { score: 0.9, ..qa };
        assert_eq!(revision_notes(&good, &[], 0.8), None);
    }

    #[test]
    fn a_bundle_without_qa_fails_its_gates() {
        let c = constraints(&[]);
        let outcome = Outcome { content: None, qa: None, constraints: &c, artifacts: json!({}), cycles: 0 };
        let bundle = bundle(&outcome);
        assert_eq!(bundle["result"]["content"], "");
        assert_eq!(bundle["quality"]["pass"], false);
        assert_eq!(bundle["acceptance-report"]["overall"], false);
        let criteria = bundle["acceptance-report"]["criteria"].as_array().unwrap();
        assert!(criteria.iter().any(|c| c["criterion"] == "qa_performed" && c["passed"] == false));
    }
}
