#!/usr/bin/env python3
"""url_check.py: a runok extension in Python (protocol runok-extension).

runok starts one process per command it validates, writes ONE compact
JSON-RPC request to stdin with no trailing newline, closes stdin, waits for
the process to exit and parses ALL of stdout as one JSON value:

    {"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"curl",
     "flags":{...},"args":["https://..."],"raw_command_line":"...","env":{...},"cwd":"..."}}

    -> {"jsonrpc":"2.0","id":1,"result":{"status":"ask","message":"..."}}
    -> {"jsonrpc":"2.0","id":1,"result":{"status":"allow"}}

Rule: answer "ask" when the command targets an internal host, "allow"
otherwise. A host is internal when it is

    * "localhost", or ends in .localhost, .local, .internal, .intranet, .corp
      or .lan, or has a label that is exactly "internal" (api.internal.example.com);
    * an IP literal that is private, loopback, link-local (this includes the
      169.254.169.254 cloud metadata address) or unspecified.

URLs are taken from the positional args (with or without a scheme, as curl
accepts both) and from anything URL-shaped in raw_command_line.

Habits worth copying:

    * Read stdin to EOF (sys.stdin.buffer.read()); there is no final newline.
    * Write one JSON document and nothing else; debugging goes to stderr (runok
      discards it). Exit 0; runok ignores the exit status anyway.
    * runok shows "message" without sanitising it, so host names are quoted
      with non-printable characters replaced before they go into it.
    * A malformed request gets a JSON-RPC error object. runok turns any error
      into "ask", which is the safe side for a guard.
"""

import ipaddress
import json
import re
import sys
from urllib.parse import urlsplit

INTERNAL_SUFFIXES = (".localhost", ".local", ".internal", ".intranet", ".corp", ".lan")
URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")
BARE_HOST = re.compile(r"^[A-Za-z0-9.-]+(:[0-9]+)?(/.*)?$")


def send(document):
    sys.stdout.write(json.dumps(document, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def printable(text, limit=80):
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:limit]


def host_of(candidate):
    """The host name of a URL-ish string, or None."""
    if "://" not in candidate:
        # curl accepts "host/path"; only treat it as a URL if it looks like one.
        if not BARE_HOST.match(candidate) or ("." not in candidate
                                             and not candidate.startswith("localhost")):
            return None
        candidate = "//" + candidate
    try:
        return urlsplit(candidate).hostname  # lower-cased, brackets removed
    except ValueError:  # e.g. a malformed IPv6 literal
        return None


def is_internal(host):
    host = host.rstrip(".")
    if host == "localhost" or host.endswith(INTERNAL_SUFFIXES):
        return True
    if "internal" in host.split("."):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified


def validate(params):
    candidates = []
    args = params.get("args")
    if isinstance(args, list):
        candidates += [a for a in args if isinstance(a, str)]
    raw = params.get("raw_command_line")
    if isinstance(raw, str):
        candidates += URL_IN_TEXT.findall(raw)

    internal = []
    for candidate in candidates:
        host = host_of(candidate)
        if host and is_internal(host) and host not in internal:
            internal.append(host)

    if internal:
        hosts = ", ".join(printable(h) for h in internal[:5])
        return {"status": "ask",
                "message": f"this command reaches internal host(s): {hosts}"}
    return {"status": "allow"}


def main():
    raw = sys.stdin.buffer.read()
    try:
        request = json.loads(raw)
    except ValueError as err:
        print(f"url_check: cannot parse request: {err}", file=sys.stderr)
        send({"jsonrpc": "2.0", "id": None,
              "error": {"code": -32700, "message": "parse error"}})
        return 0

    if not isinstance(request, dict):
        send({"jsonrpc": "2.0", "id": None,
              "error": {"code": -32600, "message": "invalid request"}})
        return 0
    request_id = request.get("id")
    method = request.get("method")
    if method != "validateCommand":
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32601,
                        "message": f"method not found: {printable(str(method))}"}})
        return 0
    params = request.get("params")
    if not isinstance(params, dict):
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32602, "message": "invalid params: expected an object"}})
        return 0
    send({"jsonrpc": "2.0", "id": request_id, "result": validate(params)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
