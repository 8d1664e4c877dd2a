//! What the user configured (`initializationOptions` and
//! `workspace/didChangeConfiguration`), read from JSON: the analysis
//! configuration (pointee-ide's `Config`), which diagnostics to publish,
//! inlay hints, and the server's own timings.

use pointee_ide::{Bounds, Config, DiagnosticsConfig, Lang};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndirectCallsOnly {
    pub c: bool,
    pub java: bool,
}

impl IndirectCallsOnly {
    pub fn applies_to(self, path: &str) -> bool {
        match Lang::of_path(path) {
            Some(Lang::C) => self.c,
            Some(Lang::Java) => self.java,
            None => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The analyses' configuration (applied to the host as a change).
    pub config: Config,
    /// Which diagnostics to publish; codes turned off
    /// (`diagnostics.checks: {"null-deref": false}`) are in its `disabled`.
    pub diagnostics: DiagnosticsConfig,
    pub inlay_hints: bool,
    /// Per language (`goto.indirectCallsOnly`): definition answers only on
    /// indirect and virtual calls and declaration answers nothing, for a
    /// client that also runs the language's own server (clangd, the Java
    /// extension) and would otherwise get each answer twice.
    pub indirect_calls_only: IndirectCallsOnly,
    /// Milliseconds to wait after an edit before analysing.
    pub debounce_ms: u64,
    /// Milliseconds an analysis may take before it reports `$/progress`.
    pub progress_after_ms: u64,
    /// The bounds of a witness search ("Find an input that triggers
    /// this"; `witness.loops`, `depth`, `paths`, `ms`).
    pub witness: Bounds,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            config: Config::default(),
            diagnostics: DiagnosticsConfig::default(),
            inlay_hints: false,
            indirect_calls_only: IndirectCallsOnly::default(),
            debounce_ms: 150,
            progress_after_ms: 300,
            witness: Bounds::default(),
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
        // The (C) analysis's budget: a number sets it, `null` removes it
        // (the memory ceiling goes back to its default).
        if let Some(x) = s(v, &["budget", "steps"]) {
            self.config.c_budget_steps = x.as_u64();
        }
        if let Some(x) = s(v, &["budget", "ms"]) {
            self.config.c_budget_ms = x.as_u64();
        }
        if let Some(x) = s(v, &["budget", "maxMemoryMb"]) {
            self.config.c_max_memory_mb = x.as_u64().filter(|&n| n > 0);
        }
        if let Some(b) = s(v, &["c", "mallocMayFail"]).and_then(|x| x.as_bool()) {
            self.config.c_assume_alloc_succeeds = !b;
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
        if let Some(serde_json::Value::Object(checks)) = s(v, &["diagnostics", "checks"]) {
            for (code, on) in checks {
                match on.as_bool() {
                    Some(false) => self.diagnostics.disabled.insert(code),
                    Some(true) => self.diagnostics.disabled.remove(&code),
                    None => false,
                };
            }
        }
        flag(&["inlayHints", "enable"], &mut self.inlay_hints);
        // `true` or `false` for both languages, or `{"c": .., "java": ..}`.
        let only = &mut self.indirect_calls_only;
        match s(v, &["goto", "indirectCallsOnly"]) {
            Some(serde_json::Value::Bool(b)) => (only.c, only.java) = (b, b),
            Some(serde_json::Value::Object(_)) => {
                flag(&["goto", "indirectCallsOnly", "c"], &mut only.c);
                flag(&["goto", "indirectCallsOnly", "java"], &mut only.java);
            }
            _ => {}
        }
        let number = |path: &[&str]| s(v, path).and_then(|x| x.as_u64());
        let w = &mut self.witness;
        if let Some(n) = number(&["witness", "loops"]) {
            w.loop_unfoldings = n.min(u32::MAX as u64) as u32;
        }
        if let Some(n) = number(&["witness", "depth"]) {
            w.call_depth = n.min(u32::MAX as u64) as u32;
        }
        if let Some(n) = number(&["witness", "paths"]) {
            w.max_paths = n.min(u32::MAX as u64) as u32;
        }
        if let Some(n) = number(&["witness", "ms"]) {
            w.time_ms = n;
        }
        if let Some(n) = s(v, &["debounceMs"]).and_then(|x| x.as_u64()) {
            self.debounce_ms = n;
        }
        if let Some(n) = s(v, &["progressAfterMs"]).and_then(|x| x.as_u64()) {
            self.progress_after_ms = n;
        }
    }
}
