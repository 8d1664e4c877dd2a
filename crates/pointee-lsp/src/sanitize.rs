//! A guard in front of the protocol codec. tower-lsp-server's reader stops
//! for good at the first message it cannot decode (tokio-util's framed
//! reader ends after an error), which would end the server on one bad
//! message. This pump re-frames the input and replaces every message that is
//! not well-formed JSON-RPC by a request to `pointee/malformed` (id null) or
//! `pointee/invalidRequest` (the message's id when it has one), which the
//! server answers with the JSON-RPC error the specification asks for.

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Largest message accepted (larger ones are skipped as malformed).
const MAX_BODY: usize = 512 << 20;

/// How the input ended.
#[derive(Debug, PartialEq, Eq)]
pub enum InputEnd {
    /// The client sent `exit`: the server must end now, whatever it still runs.
    Exit,
    /// The input closed (or failed, or the server stopped reading).
    Closed,
}

/// Copies framed messages from `input` to `output`, replacing bad ones,
/// until the client's `exit` (the last message a server reads) or the end of
/// the input.
pub async fn pump<R, W>(mut input: R, mut output: W) -> InputEnd
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        // Headers.
        let header_end = loop {
            if let Some(i) = find(&buf, b"\r\n\r\n") {
                break Some(i);
            }
            match input.read(&mut chunk).await {
                Ok(0) | Err(_) => break None,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let Some(header_end) = header_end else {
            return InputEnd::Closed;
        };
        let headers = String::from_utf8_lossy(&buf[..header_end]).into_owned();
        let len = headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        });
        let Some(len) = len.filter(|&l| l <= MAX_BODY) else {
            // No usable length: skip to the next header block.
            buf.drain(..header_end + 4);
            let next = find(&buf, b"Content-Length").unwrap_or(buf.len());
            buf.drain(..next);
            if write(&mut output, &malformed(None)).await.is_err() {
                return InputEnd::Closed;
            }
            continue;
        };
        buf.drain(..header_end + 4);
        while buf.len() < len {
            match input.read(&mut chunk).await {
                Ok(0) | Err(_) => return InputEnd::Closed,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        let body: Vec<u8> = buf.drain(..len).collect();
        let (out, exit) = match check(&body) {
            Ok(checked) => (checked.text, checked.exit),
            Err(bad) => (malformed(bad), false),
        };
        if write(&mut output, &out).await.is_err() {
            return InputEnd::Closed;
        }
        if exit {
            return InputEnd::Exit;
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

async fn write<W: AsyncWrite + Unpin>(w: &mut W, body: &str) -> std::io::Result<()> {
    w.write_all(format!("Content-Length: {}\r\n\r\n{}", body.len(), body).as_bytes())
        .await?;
    w.flush().await
}

/// A message the codec decodes.
struct Checked {
    text: String,
    /// It is the `exit` notification.
    exit: bool,
}

/// `Ok` for a message the codec decodes; `Err(Some(id))` for an invalid
/// request with a usable id, `Err(None)` for anything else.
fn check(body: &[u8]) -> Result<Checked, Option<Option<Value>>> {
    let none: Option<Option<Value>> = None;
    let text = std::str::from_utf8(body).map_err(|_| none.clone())?;
    let v: Value = serde_json::from_str(text).map_err(|_| none.clone())?;
    let obj = v.as_object().ok_or(Some(None))?;
    let id = obj.get("id");
    let id_ok = match id {
        None | Some(Value::Null) | Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    let usable_id = if id_ok { id.cloned() } else { None };
    let bad = || Some(usable_id.clone());
    if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) || !id_ok {
        return Err(bad());
    }
    if let Some(m) = obj.get("method") {
        if !m.is_string() {
            return Err(bad());
        }
        if let Some(p) = obj.get("params") {
            if !(p.is_object() || p.is_array() || p.is_null()) {
                return Err(bad());
            }
        }
        return Ok(Checked {
            text: text.to_string(),
            exit: m == "exit",
        });
    }
    // A response to one of the server's requests.
    let has_result = obj.contains_key("result");
    let error_ok = obj.get("error").is_some_and(|e| {
        e.get("code").is_some_and(|c| c.is_i64()) && e.get("message").is_some_and(|m| m.is_string())
    });
    if id.is_some() && (has_result ^ error_ok) {
        return Ok(Checked {
            text: text.to_string(),
            exit: false,
        });
    }
    if id.is_none() || id == Some(&Value::Null) {
        // Not a request and not a response we can match: nothing to answer.
        return Err(Some(None));
    }
    Err(bad())
}

/// The stand-in request: `None` → a parse error answered with id null;
/// `Some(id)` → an invalid request answered with that id (or null).
fn malformed(id: Option<Option<Value>>) -> String {
    match id {
        None => r#"{"jsonrpc":"2.0","id":null,"method":"pointee/malformed"}"#.to_string(),
        Some(id) => serde_json::json!({
            "jsonrpc": "2.0",
            "id": id.unwrap_or(Value::Null),
            "method": "pointee/invalidRequest",
        })
        .to_string(),
    }
}
