//! Tests of the whole preprocessor, one or more per documented feature (see
//! `docs/preprocessor.md`): text in, expanded text, diagnostics and
//! positions out.

use crate::*;

fn fs_of(files: &[(&str, &str)]) -> MemoryFs {
    let mut fs = MemoryFs::new();
    for (p, t) in files {
        fs.insert(p, t);
    }
    fs
}

/// Preprocesses `main.c` of `files` with `config`.
fn run(config: &Config, files: &[(&str, &str)]) -> Output {
    preprocess(config, &fs_of(files), "main.c")
}

fn pp(files: &[(&str, &str)]) -> Output {
    run(&Config::default(), files)
}

/// The tokens of a text, one space apart (whitespace does not matter).
fn tokens(text: &str) -> String {
    crate::lex::lex(text)
        .iter()
        .map(|t| crate::lex::spelling(text, t).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The expansion of `main.c` alone, as tokens.
fn expand(text: &str) -> String {
    tokens(&pp(&[("main.c", text)]).text)
}

fn assert_expands(text: &str, expected: &str) {
    assert_eq!(expand(text), tokens(expected), "expanding:\n{text}");
}

fn messages(out: &Output) -> Vec<String> {
    out.diagnostics.iter().map(|d| d.message.clone()).collect()
}

// ---------------------------------------------------------------- macros

#[test]
fn object_like_macros_expand_and_rescan() {
    assert_expands("#define A B\n#define B 1\nA + B", "1 + 1");
}

#[test]
fn function_like_macros_take_arguments() {
    assert_expands(
        "#define NEXT(n) ((n)->next)\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\nNEXT(p); MAX(f(x, y), (1, 2));",
        "((p)->next); ((f(x, y)) > ((1, 2)) ? (f(x, y)) : ((1, 2)));",
    );
}

#[test]
fn a_function_like_name_without_parentheses_is_not_expanded() {
    assert_expands(
        "#define f(x) [x]\nint (*p)(int) = f; f (1);",
        "int (*p)(int) = f; [1];",
    );
}

#[test]
fn arguments_span_lines_and_keep_nested_parentheses() {
    assert_expands("#define F(a, b) a|b\nF((1,\n2),\n(3))", "(1,2)|(3)");
}

#[test]
fn undef_removes_a_macro() {
    assert_expands("#define A 1\nA\n#undef A\nA", "1 A");
}

#[test]
fn redefinition_replaces() {
    assert_expands("#define A 1\n#define A 2\nA", "2");
}

#[test]
fn stringification() {
    assert_expands(
        r#"#define str(x) #x
str(a  +   b) str( "q\n" ) str('"') str()"#,
        r#""a + b" "\"q\\n\"" "'\"'" """#,
    );
}

#[test]
fn token_pasting() {
    assert_expands(
        "#define CAT(a, b) a ## b\n#define FIELD(n) s.f_ ## n\nCAT(x, 1) CAT(+, =) FIELD(next) CAT(,y) CAT(,)",
        "x1 += s.f_next y",
    );
}

#[test]
fn pasting_that_makes_no_token_keeps_both_with_a_warning() {
    let out = pp(&[("main.c", "#define CAT(a, b) a ## b\nCAT(+, -)")]);
    assert_eq!(tokens(&out.text), "+ -");
    assert!(
        messages(&out)[0].contains("not one token"),
        "{:?}",
        messages(&out)
    );
}

#[test]
fn variadic_macros() {
    assert_expands(
        "#define P(fmt, ...) printf(fmt, __VA_ARGS__)\n#define N(...) f(__VA_ARGS__)\nP(\"%d %d\", a, b); N(); N(1, (2, 3));",
        "printf(\"%d %d\", a, b); f(); f(1, (2, 3));",
    );
}

#[test]
fn gnu_comma_paste_drops_the_comma_before_empty_variadic_arguments() {
    assert_expands(
        "#define E(fmt, ...) f(fmt, ## __VA_ARGS__)\n#define G(fmt, args...) f(fmt, ##args)\nE(\"a\"); E(\"a\", 1, 2); G(\"b\"); G(\"b\", 3);",
        "f(\"a\"); f(\"a\", 1, 2); f(\"b\"); f(\"b\", 3);",
    );
}

#[test]
fn va_opt_appears_only_with_variadic_arguments() {
    assert_expands(
        "#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\nF(1) F(1, 2)",
        "f(1) f(1, 2)",
    );
}

#[test]
fn a_macro_is_not_expanded_inside_its_own_expansion() {
    // Blue paint: `x` and `f` are painted inside their expansions, and stay
    // painted when the result is rescanned elsewhere.
    assert_expands(
        "#define x x + 1\n#define f(a) f(a) * 2\n#define g f\nx; f(3); g(4);",
        "x + 1; f(3) * 2; f(4) * 2;",
    );
    assert_expands("#define foo a foo b\n#define bar foo\nbar", "a foo b");
}

#[test]
fn the_standards_example_3() {
    // C11 6.10.3.5 EXAMPLE 3.
    let text = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    assert_expands(
        text,
        r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };"#,
    );
}

#[test]
fn the_standards_example_4() {
    // C11 6.10.3.5 EXAMPLE 4, with the computed include.
    let text = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
#include xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let out = pp(&[("main.c", text), ("vers2.h", "included;")]);
    assert_eq!(
        tokens(&out.text),
        tokens(
            r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
included;
"hello";
"hello" ", world""#
        )
    );
}

#[test]
fn the_standards_example_5_placemarkers() {
    assert_expands(
        "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\nt(10,,), t(,11,), t(,,12), t(,,) };",
        "int j[] = { 123, 45, 67, 89, 10, 11, 12, };",
    );
}

#[test]
fn the_standards_example_7_variadic() {
    let text = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    assert_expands(
        text,
        r#"fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#,
    );
}

#[test]
fn arguments_are_expanded_before_substitution_but_not_next_to_hash() {
    assert_expands(
        "#define A 1\n#define id(x) x\n#define s(x) #x\n#define xs(x) s(x)\nid(A) s(A) xs(A)",
        "1 \"A\" \"1\"",
    );
}

#[test]
fn a_macro_call_may_end_after_the_expansion_that_named_it() {
    // `f(2)` expands to `2*g`; `g` takes `(9)` from the text after it.
    assert_expands("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2*9*g");
}

#[test]
fn wrong_argument_counts_are_reported_and_left_alone() {
    let out = pp(&[("main.c", "#define F(a, b) a\nF(1) F(1, 2, 3) ok")]);
    assert_eq!(tokens(&out.text), "F ( 1 ) F ( 1 , 2 , 3 ) ok");
    assert_eq!(out.diagnostics.len(), 2, "{:?}", messages(&out));
}

#[test]
fn an_unterminated_call_is_reported() {
    let out = pp(&[("main.c", "#define F(a) a\nF(1, ")]);
    assert!(messages(&out)[0].contains("unterminated argument list"));
}

#[test]
fn bad_defines_are_reported_and_ignored() {
    let out = pp(&[(
        "main.c",
        "#define\n#define 3 x\n#define F(a, a) a\n#define G(a) #b\n#define H ## x\nF G H",
    )]);
    assert_eq!(tokens(&out.text), "F G H");
    assert_eq!(out.diagnostics.len(), 5, "{:?}", messages(&out));
}

#[test]
fn builtin_macros() {
    let out = pp(&[
        ("main.c", "#include \"h.h\"\n__FILE__ __LINE__ __COUNTER__ __COUNTER__ __INCLUDE_LEVEL__ __BASE_FILE__"),
        ("h.h", "\n\n__FILE__ __LINE__ __INCLUDE_LEVEL__"),
    ]);
    assert_eq!(
        tokens(&out.text),
        "\"h.h\" 3 1 \"main.c\" 2 0 1 0 \"main.c\""
    );
}

#[test]
fn line_of_a_builtin_in_a_macro_is_the_line_of_the_use() {
    assert_expands("#define HERE __LINE__\n\nHERE", "3");
}

#[test]
fn pragma_operator_is_dropped() {
    assert_expands("a _Pragma(\"GCC diagnostic push\") b", "a b");
}

// ---------------------------------------------------------- conditionals

#[test]
fn conditional_groups_take_one_branch() {
    assert_expands(
        "#if 0\na\n#elif 1\nb\n#elif 1\nc\n#else\nd\n#endif\n#ifdef X\ne\n#else\nf\n#endif\n#ifndef X\ng\n#endif",
        "b f g",
    );
}

#[test]
fn if_arithmetic_is_cs() {
    let cases = [
        ("1 + 2 * 3 == 7", true),
        ("(1 << 4) == 16 && 7 / 2 == 3 && 7 % 4 == 3", true),
        ("-1 < 0", true),
        ("-1 < 0u", false), // unsigned comparison
        ("0xffffffffffffffff == -1", true),
        ("18446744073709551615 > 0", true),
        ("1 ? 2 : 3 == 2", true),
        ("!0 && ~0 == -1", true),
        ("'a' == 97 && '\\n' == 10 && '\\377' < 0", true),
        ("0 && 1 / 0", false), // not evaluated: no error
        ("1 || 1 / 0", true),
        ("UNKNOWN == 0 && !UNKNOWN", true),
        (
            "0x10 == 16 && 010 == 8 && 0b11 == 3 && 10L == 10 && 3ull == 3",
            true,
        ),
        ("(2 > 1) + (1 > 2) == 1", true),
    ];
    for (e, want) in cases {
        let got = expand(&format!("#if {e}\nyes\n#else\nno\n#endif"));
        assert_eq!(got, if want { "yes" } else { "no" }, "#if {e}");
    }
}

#[test]
fn defined_and_macros_in_if() {
    assert_expands(
        "#define A 2\n#define ON\n#if defined(A) && defined ON && !defined B && A == 2\nyes\n#endif\n#if defined(B) || A > 3\nno\n#endif",
        "yes",
    );
}

#[test]
fn if_errors_are_reported_and_take_no_branch() {
    let out = pp(&[(
        "main.c",
        "#if 1 / 0\na\n#endif\n#if (1\nb\n#endif\n#if\nc\n#endif\nd",
    )]);
    assert_eq!(tokens(&out.text), "d");
    assert_eq!(out.diagnostics.len(), 3, "{:?}", messages(&out));
}

#[test]
fn skipped_groups_are_not_read() {
    // Nothing in a skipped group is a directive but the conditionals.
    assert_expands(
        "#if 0\n#error no\n#include \"missing.h\"\n#define A 1\n#if 1\n#else\n#endif\n#endif\nA",
        "A",
    );
}

#[test]
fn elifdef_and_elifndef() {
    assert_expands(
        "#define B\n#ifdef A\na\n#elifdef B\nb\n#endif\n#ifdef A\na\n#elifndef C\nc\n#endif",
        "b c",
    );
}

#[test]
fn unbalanced_conditionals_are_reported() {
    let out = pp(&[
        ("main.c", "#include \"h.h\"\n#endif\n#else\nx"),
        ("h.h", "#if 1\n"),
    ]);
    assert_eq!(tokens(&out.text), "x");
    let m = messages(&out);
    assert!(
        m.iter().any(|m| m.contains("unterminated conditional")),
        "{m:?}"
    );
    assert!(m.iter().any(|m| m.contains("#endif without #if")), "{m:?}");
    assert!(m.iter().any(|m| m.contains("#else without #if")), "{m:?}");
}

#[test]
fn has_queries_in_if() {
    let out = pp(&[
        (
            "main.c",
            "#if __has_include(\"h.h\") && !__has_include(<nope.h>) && !__has_attribute(packed)\nyes\n#endif",
        ),
        ("h.h", ""),
    ]);
    assert_eq!(tokens(&out.text), "yes");
}

// ------------------------------------------------------------- includes

#[test]
fn quoted_includes_look_beside_the_including_file_first() {
    let config = Config {
        include_dirs: vec!["inc".into()],
        ..Default::default()
    };
    let out = run(
        &config,
        &[
            ("main.c", "#include \"sub/a.h\"\n#include \"b.h\"\nmain"),
            ("sub/a.h", "#include \"b.h\"\na"),
            ("sub/b.h", "sub_b"),
            ("inc/b.h", "inc_b"),
            ("b.h", "top_b"),
        ],
    );
    assert_eq!(tokens(&out.text), "sub_b a top_b main");
    let paths: Vec<&str> = out.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "main.c",
            "<built-in>",
            "<command-line>",
            "sub/a.h",
            "sub/b.h",
            "b.h"
        ]
    );
}

#[test]
fn angle_includes_search_the_include_then_system_directories() {
    let config = Config {
        quote_dirs: vec!["q".into()],
        include_dirs: vec!["inc".into()],
        system_dirs: vec!["sys".into()],
        ..Default::default()
    };
    let out = run(
        &config,
        &[
            ("main.c", "#include <a.h>\n#include <b.h>\n#include \"c.h\""),
            ("q/a.h", "quote_only"),
            ("sys/a.h", "sys_a"),
            ("inc/b.h", "inc_b"),
            ("sys/b.h", "sys_b"),
            ("q/c.h", "quote_c"),
        ],
    );
    assert_eq!(tokens(&out.text), "sys_a inc_b quote_c");
}

#[test]
fn include_next_goes_on_after_the_directory_found() {
    let config = Config {
        include_dirs: vec!["a".into(), "b".into()],
        ..Default::default()
    };
    let out = run(
        &config,
        &[
            ("main.c", "#include <x.h>"),
            ("a/x.h", "first\n#include_next <x.h>"),
            ("b/x.h", "second"),
        ],
    );
    assert_eq!(tokens(&out.text), "first second");
}

#[test]
fn include_guards_and_pragma_once_include_a_file_once() {
    let out = pp(&[
        ("main.c", "#include \"g.h\"\n#include \"g.h\"\n#include \"o.h\"\n#include \"o.h\"\n#include \"n.h\"\n#include \"n.h\""),
        ("g.h", "// guarded\n#ifndef G_H\n#define G_H\nguarded\n#endif\n"),
        ("o.h", "#pragma once\nonce"),
        ("n.h", "twice"),
    ]);
    assert_eq!(tokens(&out.text), "guarded once twice twice");
    // The second inclusion of the guarded file is not even read.
    assert_eq!(out.files.iter().filter(|f| f.path == "g.h").count(), 1);
}

#[test]
fn an_include_guard_needs_the_whole_file_inside_it() {
    let out = pp(&[
        ("main.c", "#include \"g.h\"\n#include \"g.h\""),
        ("g.h", "#ifndef G_H\n#define G_H\nin\n#endif\nafter"),
    ]);
    assert_eq!(tokens(&out.text), "in after after");
}

#[test]
fn missing_headers_are_reported_once_and_are_not_fatal() {
    let out = pp(&[(
        "main.c",
        "#include <nowhere.h>\n#include <nowhere.h>\n#include \"gone.h\"\nstill",
    )]);
    assert_eq!(tokens(&out.text), "still");
    assert_eq!(
        out.diagnostics
            .iter()
            .map(|d| (d.severity, d.message.as_str()))
            .collect::<Vec<_>>(),
        [
            (
                Severity::Info,
                "<nowhere.h> is not in pointee's C library model; its names are unknown"
            ),
            (
                Severity::Warning,
                "`gone.h` not found; its names are unknown"
            ),
        ]
    );
}

#[test]
fn recursive_includes_stop() {
    let out = pp(&[("main.c", "#include \"main.c\"\nx")]);
    assert!(messages(&out)
        .iter()
        .any(|m| m.contains("nested too deeply")));
}

// ---------------------------------------------------- other directives

#[test]
fn error_warning_line_pragma_and_unknown_directives() {
    let out = pp(&[(
        "main.c",
        "#error stop   here\n#warning careful\n#line 100 \"x.c\"\n#pragma GCC poison\n#ident \"v\"\n# 12 \"y.c\"\n#\n#frobnicate\nok",
    )]);
    assert_eq!(tokens(&out.text), "ok");
    assert_eq!(
        out.diagnostics
            .iter()
            .map(|d| (d.severity, d.message.as_str()))
            .collect::<Vec<_>>(),
        [
            (Severity::Error, "#error stop here"),
            (Severity::Warning, "#warning careful"),
            (Severity::Warning, "unknown directive #frobnicate ignored"),
        ]
    );
}

#[test]
fn push_and_pop_macro() {
    assert_expands(
        "#define A 1\n#pragma push_macro(\"A\")\n#undef A\n#define A 2\nA\n#pragma pop_macro(\"A\")\nA",
        "2 1",
    );
}

// ------------------------------------------------ predefined and config

#[test]
fn predefined_macros_describe_gcc_on_x86_64_linux() {
    assert_expands(
        "__STDC__ __STDC_VERSION__ __GNUC__ __x86_64__ __linux__ __CHAR_BIT__ __SIZEOF_POINTER__ __SIZEOF_LONG__ __POINTEE__ linux",
        "1 201710L 12 1 1 8 8 8 1 1",
    );
}

#[test]
fn std_sets_the_version_and_strictness() {
    let c89 = Config {
        std: Some(Standard::C89),
        ..Default::default()
    };
    let out = run(
        &c89,
        &[(
            "main.c",
            "#ifdef __STDC_VERSION__\nv\n#endif\n__STRICT_ANSI__ linux",
        )],
    );
    assert_eq!(tokens(&out.text), "1 linux");
    let c11 = Config::from_args(&["-std=c11"], "");
    let out = run(&c11, &[("main.c", "__STDC_VERSION__")]);
    assert_eq!(tokens(&out.text), "201112L");
}

#[test]
fn command_line_defines_and_undefines_in_order() {
    let config = Config::from_args(
        &[
            "-DA",
            "-DB=2",
            "-DF(x)=(x+1)",
            "-U__GNUC__",
            "-DC=1",
            "-UC",
            "-D__POINTEE__=7",
        ],
        "",
    );
    let out = run(&config, &[("main.c", "A B F(3) __GNUC__ C __POINTEE__")]);
    assert_eq!(tokens(&out.text), tokens("1 2 (3+1) __GNUC__ C 7"));
}

#[test]
fn forced_includes_come_before_the_main_file() {
    let config = Config::from_args(&["-include", "cfg.h", "-include", "b.h"], "");
    let out = run(
        &config,
        &[
            ("main.c", "VALUE"),
            ("cfg.h", "#define VALUE 42\nfirst"),
            ("b.h", "second"),
        ],
    );
    assert_eq!(tokens(&out.text), "first second 42");
}

// ------------------------------------------------------------ positions

/// Where the `n`th occurrence of `needle` in the expanded text lands, as
/// the text of `file` there.
fn lands(out: &Output, files: &[(&str, &str)], needle: &str, n: usize) -> String {
    let at = out
        .text
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` #{n} in {:?}", out.text))
        .0 as u32;
    let loc = out
        .map
        .resolve(Range::new(at, at + needle.len() as u32))
        .expect("a token is there");
    let path = &out.files[loc.file as usize].path;
    let text = files.iter().find(|(p, _)| p == path).expect("a file").1;
    text[loc.range.start as usize..loc.range.end as usize].to_string()
}

#[test]
fn a_file_without_macros_keeps_its_offsets() {
    let text = "/* c */ int x;\n#define UNUSED 1\n  int *p = &x; // done\n";
    let out = pp(&[("main.c", text)]);
    assert_eq!(out.text.len(), text.rfind(';').unwrap() + 1);
    for word in ["int", "x", "p", "&x", "done"] {
        if let Some(i) = text.find(word).filter(|_| word != "done") {
            assert_eq!(out.text.find(word), Some(i), "{word}");
        }
    }
    assert_eq!(
        out.map.spans.len(),
        1,
        "one run byte for byte: {:?}",
        out.map.spans
    );
}

#[test]
fn arguments_land_where_they_are_spelled_and_bodies_on_the_use() {
    let main = "#define G(L) (L->l_G)\nint f(void) { return G(state)->x; }";
    let files = [("main.c", main)];
    let out = pp(&files);
    assert_eq!(lands(&out, &files, "state", 0), "state");
    assert_eq!(lands(&out, &files, "l_G", 0), "G(state)");
    assert_eq!(lands(&out, &files, "state->l_G", 0), "G(state)");
    assert_eq!(lands(&out, &files, "x", 0), "x");
    // A node from the expansion to text after it covers both.
    let whole = "(state->l_G)->x";
    assert!(out.text.contains(whole), "{:?}", out.text);
    assert_eq!(lands(&out, &files, whole, 0), "G(state)->x");
}

#[test]
fn nested_expansions_land_on_the_outermost_use_in_the_file() {
    let main = "#define NEXT(n) ((n)->next)\n#define SECOND(n) NEXT(NEXT(n))\nSECOND(list);";
    let files = [("main.c", main)];
    let out = pp(&files);
    assert_eq!(lands(&out, &files, "next", 0), "SECOND(list)");
    assert_eq!(lands(&out, &files, "list", 0), "list");
    assert_eq!(
        out.expansions
            .iter()
            .map(|e| &main[e.at.range.start as usize..e.at.range.end as usize])
            .collect::<Vec<_>>(),
        ["SECOND(list)"]
    );
}

#[test]
fn a_macro_from_a_header_lands_on_its_use_and_the_header_keeps_its_own() {
    let files = [
        (
            "main.c",
            "#include \"list.h\"\nnode *f(node *n) { return NEXT(n); }",
        ),
        (
            "list.h",
            "typedef struct node { struct node *next; } node;\n#define NEXT(n) ((n)->next)\n",
        ),
    ];
    let out = pp(&files);
    assert_eq!(lands(&out, &files, "next", 0), "next", "the header's field");
    assert_eq!(lands(&out, &files, "next", 1), "NEXT(n)");
    let header = out.map.resolve(Range::new(0, 7)).expect("typedef");
    assert_eq!(out.files[header.file as usize].path, "list.h");
    assert_eq!(
        out.files[header.file as usize].included_at.map(|l| l.range),
        Some(Range::new(0, 17))
    );
}

#[test]
fn a_diagnostic_inside_an_expansion_lands_on_the_use() {
    let main = "#define CAT(a, b) a ## b\nint x = CAT(+, -);";
    let out = pp(&[("main.c", main)]);
    let d = &out.diagnostics[0];
    assert_eq!(
        &main[d.range.start as usize..d.range.end as usize],
        "CAT(+, -)"
    );
}

#[test]
fn paths_are_joined_and_normalised() {
    assert_eq!(join("a/b", "../c/./d.h"), "a/c/d.h");
    assert_eq!(join("", "x.h"), "x.h");
    assert_eq!(join("/usr/include", "/abs.h"), "/abs.h");
    assert_eq!(join("..", "x.h"), "../x.h");
    assert_eq!(parent("a/b/c.h"), "a/b");
    assert_eq!(parent("c.h"), "");
    assert_eq!(normalize("/a//b/../../.."), "/");
}

#[test]
fn expanded_tokens_never_run_together() {
    // Written as close as possible, but read back as the same tokens.
    assert_expands(
        "#define NEG(x) -x\n#define P +\n#define E 1e\n#define ID(x) x\n-NEG(1) +P E+1 ID(a)ID(b) ID(/)ID(/) ID(L)'c' ID(.)ID(5)",
        "- - 1 + + 1e + 1 a b / / L 'c' . 5",
    );
}

// ------------------------------------------------ resuming a kept prefix

/// A unit whose leading directives read headers, define macros and leave a
/// conditional open.
const PREFIX_UNIT: &str = "#include \"a.h\"\n#define TWICE(x) ((x) + (x))\n#ifdef A_H\nint before = A + __COUNTER__;\n#endif\nint f(void) { return TWICE(A) + __LINE__ + __COUNTER__; }\n";
const PREFIX_HEADER: &str =
    "#ifndef A_H\n#define A_H\n#define A 40\nint from_a = __COUNTER__;\n#endif\n";

/// Preprocesses `main.c` in `session` and from scratch; both must agree.
fn twice(session: &mut Session, config: &Config, files: &[(&str, &str)]) -> Output {
    let fs = fs_of(files);
    let kept = session.preprocess(config, &fs, "main.c");
    let fresh = preprocess(config, &fs, "main.c");
    assert_eq!(kept, fresh, "resumed output differs for {files:?}");
    kept
}

#[test]
fn an_edit_below_the_leading_directives_resumes_after_them() {
    let mut s = Session::default();
    let c = Config::default();
    twice(
        &mut s,
        &c,
        &[("main.c", PREFIX_UNIT), ("a.h", PREFIX_HEADER)],
    );
    assert_eq!(s.resumed(), 0);
    let edited = PREFIX_UNIT.replace("return", "int k = TWICE(1);\n return k +");
    let out = twice(&mut s, &c, &[("main.c", &edited), ("a.h", PREFIX_HEADER)]);
    assert_eq!(s.resumed(), 1);
    assert!(out.text.contains("int k = ((1) + (1))"), "{}", out.text);
    // The kept run is good for the next edit, and for the first text.
    twice(
        &mut s,
        &c,
        &[("main.c", PREFIX_UNIT), ("a.h", PREFIX_HEADER)],
    );
    assert_eq!(s.resumed(), 2);
}

#[test]
fn a_changed_header_or_configuration_reads_everything_again() {
    let mut s = Session::default();
    let c = Config::default();
    twice(
        &mut s,
        &c,
        &[("main.c", PREFIX_UNIT), ("a.h", PREFIX_HEADER)],
    );
    // A header changes.
    let header = PREFIX_HEADER.replace("40", "41");
    let out = twice(&mut s, &c, &[("main.c", PREFIX_UNIT), ("a.h", &header)]);
    assert!(out.text.contains("41"), "{}", out.text);
    // A header looked for and not found appears.
    let missing = format!("#include \"b.h\"\n{PREFIX_UNIT}");
    twice(&mut s, &c, &[("main.c", &missing), ("a.h", PREFIX_HEADER)]);
    let out = twice(
        &mut s,
        &c,
        &[
            ("main.c", &missing),
            ("a.h", PREFIX_HEADER),
            ("b.h", "int in_b;\n"),
        ],
    );
    assert!(out.text.contains("in_b"), "{}", out.text);
    // Another configuration.
    let d = Config::from_args(&["-DA_H".to_string()], "");
    twice(
        &mut s,
        &d,
        &[("main.c", PREFIX_UNIT), ("a.h", PREFIX_HEADER)],
    );
    assert_eq!(s.resumed(), 0);
    // The leading directives change: resumed from the file's start only.
    let redefined = PREFIX_UNIT.replace("(x) + (x)", "(x) * 2");
    twice(
        &mut s,
        &c,
        &[("main.c", PREFIX_UNIT), ("a.h", PREFIX_HEADER)],
    );
    let out = twice(
        &mut s,
        &c,
        &[("main.c", &redefined), ("a.h", PREFIX_HEADER)],
    );
    assert!(out.text.contains("(40) * 2"), "{}", out.text);
    assert_eq!((s.resumed(), s.joined()), (1, 0));
}

#[test]
fn a_unit_of_directives_only_or_without_them_is_preprocessed_the_same() {
    let mut s = Session::default();
    let c = Config::default();
    for text in [
        "#define X 1\n",
        "",
        "int x = 1;\n",
        "#include \"a.h\"\nint y = A;\n",
    ] {
        twice(&mut s, &c, &[("main.c", text), ("a.h", PREFIX_HEADER)]);
        twice(&mut s, &c, &[("main.c", text), ("a.h", PREFIX_HEADER)]);
    }
}

/// A unit of many items, with macros defined between them, a conditional
/// around some, `__COUNTER__` and a header included below the first item.
const ITEMS_UNIT: &str = "\
#include \"a.h\"
#define NEXT(n) ((n)->next)
struct node { struct node *next; int v; };
static int count;
struct node *second(struct node *n) {
    return NEXT(NEXT(n));
}
#define STEP(p) do { (p) = NEXT(p); count++; } while (0)
void walk(struct node *p) {
    while (p) STEP(p);
}
#ifdef A_H
int with_a = A;
int counted = __COUNTER__;
#else
int without_a;
#endif
#include \"b.h\"
int *address(int *p) { return p; }
#undef NEXT
#define NEXT(n) (n)
int last(struct node *n) { return NEXT(n)->v + B; }
";

/// Every edit of `edits` applied in turn to `text`, preprocessed by one
/// session and from scratch; returns the session.
fn edit_in_turn(text: &str, edits: &[(&str, &str)], files: &[(&str, &str)]) -> Session {
    let mut s = Session::default();
    let c = Config::default();
    let mut text = text.to_string();
    for (find, with) in std::iter::once(&("", "")).chain(edits) {
        if !find.is_empty() {
            assert!(text.contains(find), "{find:?} in\n{text}");
            text = text.replacen(find, with, 1);
        }
        let mut all: Vec<(&str, &str)> = files.to_vec();
        all.push(("main.c", text.as_str()));
        twice(&mut s, &c, &all);
    }
    s
}

#[test]
fn an_edit_inside_one_item_takes_the_rest_of_the_last_output() {
    let files = [("a.h", PREFIX_HEADER), ("b.h", "#define B 2\nint in_b;\n")];
    let edits = [
        // Inside a body, the same length, then longer, then over lines.
        ("return NEXT(NEXT(n));", "return NEXT(NEXT(m));"),
        ("return NEXT(NEXT(m));", "return NEXT(n);\n    /* longer */"),
        (
            "while (p) STEP(p);",
            "while (p)\n        STEP(p);\n    count--;",
        ),
        // Inside the conditional group.
        ("int with_a = A;", "int with_a = A + 1;"),
        // A comment between items (written with the next item's first
        // token: joins at the checkpoint after that item).
        ("void walk", "/* a comment\n   over lines */\nvoid walk"),
        // Below the second include and the redefinition.
        ("return p;", "return p + 1;"),
        ("NEXT(n)->v + B", "NEXT(n)->v"),
    ];
    let s = edit_in_turn(ITEMS_UNIT, &edits, &files);
    assert_eq!(s.resumed(), edits.len() as u64);
    // The last item's edit has nothing after it to take; the others join
    // where a checkpoint follows them.
    assert!(s.joined() >= 4, "joined {} of {}", s.joined(), edits.len());
}

#[test]
fn edits_that_change_what_follows_read_on_to_the_end() {
    let files = [("a.h", PREFIX_HEADER), ("b.h", "#define B 2\nint in_b;\n")];
    let edits = [
        // A macro the items below use.
        ("#define STEP(p) do {", "#define STEP(p) do { count--;"),
        // A new definition inside an item.
        (
            "    return NEXT(NEXT(n));",
            "#undef NEXT\n#define NEXT(n) n\n    return NEXT(NEXT(n));",
        ),
        // `__COUNTER__` used in an edited item.
        (
            "int *address(int *p)",
            "int c = __COUNTER__;\nint *address(int *p)",
        ),
        // An unbalanced brace, then closed again.
        ("return p;", "return p; {"),
        ("return p; {", "return p;"),
        // An item removed, another added at the end.
        ("static int count;\n", ""),
        (
            "return NEXT(n)->v + B; }\n",
            "return NEXT(n)->v + B; }\nint tail;\n",
        ),
        // A conditional that opens in one item and closes in a later one.
        ("int *address", "#if 0\nint *address"),
        ("#undef NEXT", "#endif\n#undef NEXT"),
    ];
    edit_in_turn(ITEMS_UNIT, &edits, &files);
}

#[test]
fn line_numbers_below_an_edit_that_adds_lines_are_read_again() {
    let unit = "int a;\nint b;\nint c = 1;\nint d;\nint e;\nint f;\nint g;\nint h;\nint i;\nint j;\nint k;\nint l;\nint line = __LINE__;\n";
    let edits = [
        ("int c = 1;", "int c =\n 2;"),
        ("int c =\n 2;", "int c = 3;"),
    ];
    let s = edit_in_turn(unit, &edits, &[]);
    assert_eq!(s.resumed(), 2);
}

/// Every `.c` and `.h` file under `fixtures/c`, sorted.
fn fixture_files() -> Vec<std::path::PathBuf> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/c");
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(root)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a fixture folder") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "h") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn edits_anywhere_in_the_fixtures_preprocess_as_from_scratch() {
    let files = fixture_files();
    let (mut resumed, mut joined) = (0, 0);
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
    {
        let text = std::fs::read_to_string(path).expect("a readable fixture");
        let dir = crate::parent(path.to_str().expect("a UTF-8 path")).to_string();
        let mut fs = MemoryFs::new();
        for h in files.iter().filter(|h| h.starts_with(&dir)) {
            fs.insert(h.to_str().unwrap(), &std::fs::read_to_string(h).unwrap());
        }
        let main = path.to_str().unwrap();
        let mut s = Session::default();
        let c = Config::default();
        // A line inserted at the start of every eighth line, then removed.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .filter(|&i| i < text.len())
            .collect();
        for &at in starts.iter().step_by(8) {
            // And a character in the middle of the line made a space (a
            // word split, a comment or string opened or closed), undone.
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            let mid = (at + line_end) / 2;
            let blanked = match text.as_bytes().get(mid) {
                Some(c) if c.is_ascii() => format!("{} {}", &text[..mid], &text[mid + 1..]),
                _ => text.clone(),
            };
            let inserted = format!("{}int probe_{at};\n{}", &text[..at], &text[at..]);
            for edited in [inserted, text.clone(), blanked, text.clone()] {
                fs.insert(main, &edited);
                let kept = s.preprocess(&c, &fs, main);
                let fresh = Session::one_pass()
                    .reading_every_header()
                    .preprocess(&c, &fs, main);
                assert_eq!(kept, fresh, "{main}, line inserted at {at}");
            }
        }
        resumed += s.resumed();
        joined += s.joined();
    }
    assert!(
        resumed > 100 && joined > 50,
        "resumed {resumed}, joined {joined}"
    );
}

// ------------------------------------------------- headers read once per state

/// Each unit of `units` preprocessed in one session (kept headers taken)
/// equals it read alone with every header read; how many inclusions took
/// a kept run.
fn kept_equal_read(config: &Config, fs: &MemoryFs, units: &[&str]) -> u64 {
    let mut session = Session::one_pass();
    for unit in units {
        let kept = session.preprocess(config, fs, unit);
        let read = Session::one_pass()
            .reading_every_header()
            .preprocess(config, fs, unit);
        assert_eq!(kept, read, "{unit}");
    }
    session.headers_taken()
}

#[test]
fn headers_are_read_once_per_incoming_state() {
    let fs = fs_of(&[
        // Read again whenever the macros it looks at differ.
        (
            "cell.h",
            "#ifdef WIDE\ntypedef long cell;\n#else\ntypedef int cell;\n#endif\nstatic cell ID(cell c) { return c; }\n#define CELL_H 1\n",
        ),
        ("names.h", "#define ID(x) x##_id\n"),
        (
            "guarded.h",
            "#ifndef GUARDED_H\n#define GUARDED_H\n#include \"inner.h\"\nstruct g { INNER *p; };\n#endif\n",
        ),
        ("inner.h", "#pragma once\n#define INNER int\nINNER inner_value;\n#include <nowhere.h>\n"),
        ("count.h", "int c_ ## __COUNTER__;\nint level = __INCLUDE_LEVEL__;\n"),
        ("line.h", "int line = __LINE__;\n"),
        ("open.h", "int opened = (\n"),
        ("close.h", "1);\n"),
        ("a.c", "#include \"cell.h\"\n#include \"guarded.h\"\n#include \"count.h\"\n#define WIDE\n#include \"cell.h\"\n#include \"names.h\"\n#include \"cell.h\"\nint CELL_H_seen = CELL_H;\n"),
        ("b.c", "int b;\n#include \"guarded.h\"\n#include \"inner.h\"\n#include \"cell.h\"\n#include \"count.h\"\n#include \"line.h\"\n#include \"open.h\"\n#include \"close.h\"\n"),
        ("c.c", "int first;\n#define WIDE\n#include \"names.h\"\n#include \"cell.h\"\n#include \"guarded.h\"\nstruct s {\n#include \"line.h\"\n};\n#include \"open.h\"\n#include \"close.h\"\n"),
    ]);
    let taken = kept_equal_read(&Config::default(), &fs, &["a.c", "b.c", "c.c"]);
    // b.c takes nothing: a.c read cell.h first into an empty output, and
    // guarded.h's first token (`int`, from INNER in inner.h, which is no
    // line's first) after a `}`, not a `;`. c.c takes names.h, cell.h as
    // a.c's third (WIDE and ID defined), guarded.h as b.c (after a `;`,
    // with inner.h in it, which `#pragma once` then closes), line.h
    // (inside a struct), open.h and close.h. count.h is never kept (its
    // output depends on the counter and the depth); a.c's second and
    // third cell.h are new states (WIDE, then also ID, defined).
    assert_eq!(taken, 6, "taken {taken}");
}

#[test]
fn headers_kept_in_one_session_give_what_reading_them_gives_on_every_fixture() {
    let files = fixture_files();
    let mut fs = MemoryFs::new();
    for f in &files {
        fs.insert(f.to_str().unwrap(), &std::fs::read_to_string(f).unwrap());
    }
    let units: Vec<&str> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| p.to_str().unwrap())
        .collect();
    let taken = kept_equal_read(&Config::default(), &fs, &units);
    // Most fixtures include no header of their own (the C library is not
    // there without pointee-c), but many include the alias checks' one.
    assert!(taken > 100, "taken {taken} for {} units", units.len());
}
