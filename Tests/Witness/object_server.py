#!/usr/bin/env python3
"""A static HTTP server of a directory (or a counting proxy in front of another server) for the
client tests: single `Range: bytes=A-` / `bytes=A-B` requests answered with 206 as S3 answers
them, every request logged with the bytes of body sent, optional throttling and cut connections.

  object_server.py --log FILE (--root DIR | --upstream URL) [--rate BYTES_PER_S] [--cut SUBSTRING:BYTES:TIMES]

Prints its base URL (`http://127.0.0.1:PORT/`) on the first line of stdout, then serves until its
standard input closes. The log holds one JSON object a line: method, path, range, status, bytes, and started (the
request's arrival, seconds since 1970).
--cut ends the connection after BYTES bytes of body for the first TIMES requests whose path holds
SUBSTRING (a download cut short, as a dropped mobile connection does).
"""
import argparse
import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = None
log_lock = threading.Lock()
cuts = []  # [substring, bytes, times left]


def log(entry):
    with log_lock, open(args.log, "a") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        requested = self.headers.get("Range")
        entry = {"method": "GET", "path": self.path, "range": requested, "status": 0, "bytes": 0, "started": time.time()}
        try:
            if args.root:
                self.serve_file(requested, entry)
            else:
                self.forward(requested, entry)
        except (BrokenPipeError, ConnectionResetError):  # the client went away (a pull killed): not the server's fault
            self.close_connection = True
        finally:
            log(entry)

    def serve_file(self, requested, entry):
        relative = self.path.split("?")[0].lstrip("/")
        path = os.path.realpath(os.path.join(args.root, relative))
        if not path.startswith(os.path.realpath(args.root) + os.sep) or not os.path.isfile(path):
            return self.plain(404, b"no such object", entry)
        size = os.path.getsize(path)
        start, end = 0, size - 1
        status = 200
        if requested:
            match = re.fullmatch(r"bytes=(\d+)-(\d*)", requested)
            if not match or int(match.group(1)) >= size:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                entry["status"] = 416
                return
            start = int(match.group(1))
            end = min(int(match.group(2)), size - 1) if match.group(2) else size - 1
            status = 206
        self.send_response(status)
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        entry["status"] = status
        with open(path, "rb") as f:
            f.seek(start)
            self.body(lambda n: f.read(n), end - start + 1, entry)

    def forward(self, requested, entry):
        request = urllib.request.Request(args.upstream.rstrip("/") + self.path)
        if requested:
            request.add_header("Range", requested)
        for name in ("Cache-Control", "Accept-Encoding"):
            if self.headers.get(name):
                request.add_header(name, self.headers.get(name))
        try:
            answer = urllib.request.urlopen(request)
        except urllib.error.HTTPError as error:
            answer = error
        except OSError:
            return self.plain(502, b"upstream unreachable", entry)
        self.send_response(answer.status)
        for name in ("Content-Length", "Content-Range", "Content-Type", "ETag", "Accept-Ranges", "Cache-Control"):
            if answer.headers.get(name):
                self.send_header(name, answer.headers.get(name))
        self.end_headers()
        entry["status"] = answer.status
        length = int(answer.headers.get("Content-Length") or 0)
        self.body(lambda n: answer.read(n), length, entry)

    def body(self, read, length, entry):
        limit = None
        for cut in cuts:
            if cut[0] in self.path and cut[2] > 0:
                cut[2] -= 1
                limit = cut[1]
                break
        sent = 0
        started = time.monotonic()
        while sent < length:
            piece = read(min(16384, length - sent, (limit - sent) if limit is not None else 16384))
            if not piece:
                break
            self.wfile.write(piece)
            sent += len(piece)
            entry["bytes"] = sent
            if limit is not None and sent >= limit:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if args.rate:  # a slow link: the body takes length / rate seconds
                delay = started + sent / args.rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)

    def plain(self, status, text, entry):
        self.send_response(status)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)
        entry["status"] = status


class QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a pull killed mid-download) is what the tests do, not an error:
    the standard server prints a traceback for each into the test run's output."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--root")
    parser.add_argument("--upstream")
    parser.add_argument("--rate", type=float)
    parser.add_argument("--cut", action="append", default=[])
    args = parser.parse_args()
    for spec in args.cut:
        substring, size, times = spec.rsplit(":", 2)
        cuts.append([substring, int(size), int(times)])
    server = QuietServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # until the test closes it (or dies)
    os._exit(0)


if __name__ == "__main__":
    main()
