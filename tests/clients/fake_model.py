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
