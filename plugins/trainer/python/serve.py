"""Serves a trainer checkpoint behind an OpenAI-compatible chat-completions API, on the CPU.

Run as a host job:  /usr/bin/python3 serve.py --checkpoint FILE.pt --port 8765 [--sha256 HASH]

  POST /v1/chat/completions  non-streaming; messages in the OpenAI form (tool_calls, tool_call_id)
  GET  /v1/models            the one model served

The chat is rendered with the template train.py is trained on (src/chat-template.ts):
`<|role|>\\n...<|end|>\\n` per message, an assistant's tool calls as `<|call|>{"name","arguments"}`
lines after its text, and the prompt ends with `<|assistant|>\\n`. System messages are checked and
left out: the training samples never hold one (a run record keeps each agent's conversation, not
the system text the host builds per call), and the model's 256 pieces could not hold it. Decoding is
greedy over the model's pieces (pieces.py) with a key/value cache (decode.py) until `<|end|>` or
`max_tokens` (default --max-tokens); the context is the model's (256 pieces: a longer prompt keeps
its last pieces). `<|call|>` lines of the output that parse as
{"name": string, "arguments": ...} become `tool_calls` (finish_reason "tool_calls"); anything else
is the message's content. `tools` in a request is checked for shape but not shown to the model:
train.py's template has no place for it. Tokens are the model's pieces, so `usage` counts pieces.

A checkpoint that does not load (missing, not a torch file, no weights, weights of another shape,
or a hash other than --sha256) is reported on stderr and the process exits with status 2 before
listening. A malformed request gets 400 with {"error": {"message", "type"}}.
"""
import argparse
import json
import os
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from checkpoint import fail, load_checkpoint  # noqa: E402
from decode import greedy  # noqa: E402
from pieces import split  # noqa: E402

END = "<|end|>"
CALL = "<|call|>"
ROLES = ("system", "user", "assistant", "tool")


class BadRequest(Exception):
    pass


def parse_or_raw(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def dumps(value):
    """JSON as JavaScript's JSON.stringify writes it (what the template was rendered with)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def text_of(content, where):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if not isinstance(part, dict) or not isinstance(part.get("text", ""), str):
                raise BadRequest("%s: a content part must be an object with text" % where)
            parts.append(part.get("text", ""))
        return "".join(parts)
    raise BadRequest("%s: content must be a string, a list of text parts or null" % where)


def render(messages):
    """The prompt: every message in train.py's template, then the assistant's header."""
    if not isinstance(messages, list) or not messages:
        raise BadRequest("messages must be a non-empty array")
    out = []
    for i, m in enumerate(messages):
        where = "messages[%d]" % i
        if not isinstance(m, dict):
            raise BadRequest(where + " must be an object")
        role = m.get("role")
        if role not in ROLES:
            raise BadRequest("%s.role must be one of %s" % (where, ", ".join(ROLES)))
        content = text_of(m.get("content"), where)
        if role == "system":
            continue  # never in the training data (run records keep the conversation, not the host's system text)
        if role != "assistant":
            if role == "tool" and not isinstance(m.get("tool_call_id"), str):
                raise BadRequest(where + ".tool_call_id must be a string")
            out.append("<|%s|>\n%s%s\n" % (role, content, END))
            continue
        calls = m.get("tool_calls") or []
        if not isinstance(calls, list):
            raise BadRequest(where + ".tool_calls must be an array")
        lines = []
        for j, c in enumerate(calls):
            fn = c.get("function") if isinstance(c, dict) else None
            if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
                raise BadRequest("%s.tool_calls[%d].function.name must be a string" % (where, j))
            args = fn.get("arguments", "")
            args = parse_or_raw(args) if isinstance(args, str) else args
            lines.append(CALL + dumps({"name": fn["name"], "arguments": args}))
        body = "\n".join(s for s in [content] + lines if s != "")
        out.append("<|assistant|>\n%s%s\n" % (body, END))
    out.append("<|assistant|>\n")
    return "".join(out)


def generate(model, vocabulary, prompt, max_tokens):
    """Greedy decoding over pieces with a key/value cache (decode.py); (pieces generated, stopped at <|end|>)."""
    return greedy(model, vocabulary, split(prompt), max_tokens, END)


def parse_output(text):
    """Content and tool calls from the model's text: `<|call|>` lines that parse become calls."""
    content, calls = [], []
    for line in text.split("\n"):
        if line.startswith(CALL):
            call = parse_or_raw(line[len(CALL):])
            if isinstance(call, dict) and isinstance(call.get("name"), str) and call["name"]:
                args = call.get("arguments", {})
                calls.append({
                    "id": "call_" + uuid.uuid4().hex[:24],
                    "type": "function",
                    "function": {"name": call["name"], "arguments": args if isinstance(args, str) else dumps(args)},
                })
                continue
        content.append(line)
    text = "\n".join(content).strip()
    return (text if text or not calls else None), calls


def make_handler(model, vocabulary, name, default_max):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # one JSON line per request instead of the default
            pass

        def reply(self, status, body):
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            # One request per connection, said plainly: this server is HTTP/1.0 and single-threaded, and a
            # client that keeps the connection for its next request (Node's fetch does) otherwise finds it
            # closed and waits out its keep-alive timeout, about 4 s, before reconnecting.
            self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(data)

        def error(self, status, message, kind="invalid_request_error"):
            self.reply(status, {"error": {"message": message, "type": kind}})

        def do_GET(self):
            if self.path.rstrip("/") == "/v1/models":
                return self.reply(200, {"object": "list", "data": [{"id": name, "object": "model", "created": 0, "owned_by": "cowork-trainer"}]})
            self.error(404, "no route GET %s" % self.path, "not_found")

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length > 0 else b""
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self.error(404, "no route POST %s" % self.path, "not_found")
            try:
                try:
                    body = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError):
                    raise BadRequest("the body is not JSON")
                if not isinstance(body, dict):
                    raise BadRequest("the body must be a JSON object")
                if body.get("stream"):
                    raise BadRequest("stream is not supported")
                tools = body.get("tools", [])
                if not isinstance(tools, list) or any(not isinstance(t, dict) or not isinstance(t.get("function"), dict) for t in tools):
                    raise BadRequest("tools must be an array of {type: 'function', function: {...}}")
                max_tokens = body.get("max_tokens", body.get("max_completion_tokens", default_max))
                if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
                    raise BadRequest("max_tokens must be a positive integer")
                prompt = render(body.get("messages"))
            except BadRequest as e:
                return self.error(400, str(e))
            started = time.time()
            out, stopped = generate(model, vocabulary, prompt, max_tokens)
            content, calls = parse_output("".join(out))
            message = {"role": "assistant", "content": content}
            if calls:
                message["tool_calls"] = calls
            prompt_tokens, completion_tokens = len(split(prompt)), len(out) + (1 if stopped else 0)
            print(json.dumps({"event": "completion", "promptTokens": prompt_tokens, "completionTokens": completion_tokens, "seconds": round(time.time() - started, 4)}), flush=True)
            self.reply(200, {
                "id": "chatcmpl-" + uuid.uuid4().hex,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": name,
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else ("stop" if stopped else "length")}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
            })

    return Handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--sha256", default="")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765, help="0 picks a free port (printed in the listening line)")
    ap.add_argument("--model-name", default="")
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    model, vocabulary = load_checkpoint(a.checkpoint, a.sha256, "serve.py")
    model.eval()
    name = a.model_name or os.path.splitext(os.path.basename(a.checkpoint))[0]
    try:
        server = HTTPServer((a.host, a.port), make_handler(model, vocabulary, name, a.max_tokens))
    except OSError as e:
        fail("serve.py", "cannot listen on %s:%d: %s" % (a.host, a.port, e))
    port = server.server_address[1]
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"event": "listening", "baseUrl": "http://%s:%d/v1" % (a.host, port), "port": port, "model": name, "params": params, "vocab": len(vocabulary)}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
