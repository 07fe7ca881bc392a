"""A stand-in model for a client's "bring your own provider" mode: an
OpenAI-compatible chat completions endpoint on 127.0.0.1 that answers the
first turn with one tool call and every later turn with "done", and keeps
what the client sent back as the tool's result.

This is how a check makes Copilot CLI run one of its tools without a login
or a real model (COPILOT_PROVIDER_BASE_URL, `copilot help environment`):
the tool call goes through Copilot's own permission checks, and the tool
result says whether it was refused.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeModel:
    def __init__(self, tool: str, arguments: dict) -> None:
        self.tool, self.arguments = tool, arguments
        self.results: list[str] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:  # the model list
                self.reply_json({"data": [{"id": "gpt-4o", "object": "model"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                try:
                    request = json.loads(self.rfile.read(length))
                except ValueError:
                    request = {}
                model.record(request.get("messages", []))
                message, finish = model.answer(request.get("messages", []))
                if request.get("stream"):
                    self.reply_stream(message, finish)
                else:
                    self.reply_json(completion("chat.completion",
                                               {"index": 0, "message": message,
                                                "finish_reason": finish}))

            def reply_json(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def reply_stream(self, message: dict, finish: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                delta = dict(message)
                if "tool_calls" in delta:
                    delta["tool_calls"] = [dict(delta["tool_calls"][0], index=0)]
                for choice in ({"index": 0, "delta": delta, "finish_reason": None},
                               {"index": 0, "delta": {}, "finish_reason": finish}):
                    chunk = completion("chat.completion.chunk", choice)
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def record(self, messages: list) -> None:
        for m in messages:
            if m.get("role") == "tool":
                content = m.get("content")
                text = content if isinstance(content, str) else json.dumps(content)
                if text not in self.results:
                    self.results.append(text)

    def answer(self, messages: list) -> tuple[dict, str]:
        if any(m.get("role") == "tool" for m in messages):
            return {"role": "assistant", "content": "done"}, "stop"
        call = {"id": "call_1", "type": "function",
                "function": {"name": self.tool, "arguments": json.dumps(self.arguments)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"

    def __enter__(self) -> "FakeModel":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def completion(kind: str, choice: dict) -> dict:
    return {"id": "twsrt", "object": kind, "created": int(time.time()), "model": "gpt-4o",
            "choices": [choice],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


class FakeAnthropic:
    """The same stand-in for Claude Code (ANTHROPIC_BASE_URL): an Anthropic
    Messages endpoint whose first turn with tools is one `tool_use` of
    `tool` with `arguments`, and every later turn "done". `results` keeps
    the text of every tool_result Claude Code sent back, `calls` the
    requests that carried tools."""

    def __init__(self, tool: str, arguments: dict) -> None:
        self.tool, self.arguments = tool, arguments
        self.results: list[str] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                try:
                    request = json.loads(self.rfile.read(length))
                except ValueError:
                    request = {}
                if "count_tokens" in self.path:
                    return self.reply_json({"input_tokens": 1})
                messages = request.get("messages", [])
                model.record(messages)
                blocks, stop = model.answer(request)
                if request.get("stream"):
                    self.reply_stream(blocks, stop)
                else:
                    self.reply_json(message(blocks, stop))

            def reply_json(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def reply_stream(self, blocks: list, stop: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                events = [("message_start", {"type": "message_start",
                                             "message": message([], None)})]
                for i, block in enumerate(blocks):
                    if block["type"] == "tool_use":
                        start = dict(block, input={})
                        delta = {"type": "input_json_delta",
                                 "partial_json": json.dumps(block["input"])}
                    else:
                        start = {"type": "text", "text": ""}
                        delta = {"type": "text_delta", "text": block["text"]}
                    events += [
                        ("content_block_start", {"type": "content_block_start", "index": i,
                                                 "content_block": start}),
                        ("content_block_delta", {"type": "content_block_delta", "index": i,
                                                 "delta": delta}),
                        ("content_block_stop", {"type": "content_block_stop", "index": i}),
                    ]
                events += [("message_delta", {"type": "message_delta",
                                              "delta": {"stop_reason": stop,
                                                        "stop_sequence": None},
                                              "usage": {"output_tokens": 1}}),
                           ("message_stop", {"type": "message_stop"})]
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def record(self, messages: list) -> None:
        for m in messages:
            content = m.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    inner = block.get("content")
                    if isinstance(inner, list):
                        inner = "".join(b.get("text", "") for b in inner if isinstance(b, dict))
                    text = inner if isinstance(inner, str) else json.dumps(inner)
                    if text not in self.results:
                        self.results.append(text)

    def answer(self, request: dict) -> tuple[list, str]:
        said = json.dumps(request.get("messages", []))
        if not request.get("tools") or "tool_result" in said:
            return [{"type": "text", "text": "done"}], "end_turn"
        return [{"type": "tool_use", "id": "toolu_01twsrt", "name": self.tool,
                 "input": self.arguments}], "tool_use"

    def __enter__(self) -> "FakeAnthropic":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def message(blocks: list, stop: str | None) -> dict:
    return {"id": "msg_twsrt", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": blocks, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}
