//! What the user configured (`initializationOptions` and
//! `workspace/didChangeConfiguration`), read from JSON: the analysis
//! configuration (pointee-ide's `Config`), which diagnostics to publish,
//! inlay hints, and the server's own timings.

use pointee_ide::{Config, DiagnosticsConfig};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The analyses' configuration (applied to the host as a change).
    pub config: Config,
    pub diagnostics: DiagnosticsConfig,
    pub inlay_hints: bool,
    /// Milliseconds to wait after an edit before analysing.
    pub debounce_ms: u64,
    /// Milliseconds an analysis may take before it reports `$/progress`.
    pub progress_after_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            config: Config::default(),
            diagnostics: DiagnosticsConfig::default(),
            inlay_hints: false,
            debounce_ms: 150,
            progress_after_ms: 300,
        }
    }
}

impl Settings {
    /// Reads `{"pointee": {...}}` or the inner object; unknown keys are
    /// ignored, missing ones keep their value.
    pub fn update(&mut self, v: &serde_json::Value) {
        let v = v.get("pointee").unwrap_or(v);
        let s = |v: &serde_json::Value, path: &[&str]| -> Option<serde_json::Value> {
            let mut cur = v;
            for p in path {
                cur = cur.get(p)?;
            }
            Some(cur.clone())
        };
        if let Some(x) = s(v, &["java", "contextSensitivity"]) {
            self.config.java_cs = x.as_str().map(str::to_string);
        }
        if let Some(x) = s(v, &["java", "entry"]) {
            self.config.java_entry = x.as_str().map(str::to_string);
        }
        if let Some(x) = s(v, &["c", "contextBound"]) {
            self.config.c_context_bound = x.as_u64().map(|n| n as u32);
        }
        let flag = |path: &[&str], f: &mut bool| {
            if let Some(b) = s(v, path).and_then(|x| x.as_bool()) {
                *f = b;
            }
        };
        flag(
            &["diagnostics", "aliasChecks"],
            &mut self.diagnostics.alias_checks,
        );
        flag(
            &["diagnostics", "okChecks"],
            &mut self.diagnostics.ok_checks,
        );
        flag(&["diagnostics", "notes"], &mut self.diagnostics.notes);
        flag(&["inlayHints", "enable"], &mut self.inlay_hints);
        if let Some(n) = s(v, &["debounceMs"]).and_then(|x| x.as_u64()) {
            self.debounce_ms = n;
        }
        if let Some(n) = s(v, &["progressAfterMs"]).and_then(|x| x.as_u64()) {
            self.progress_after_ms = n;
        }
    }
}
