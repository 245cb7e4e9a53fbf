#!/bin/sh
# env_guard.sh: a runok extension in plain POSIX sh (protocol runok-extension).
#
# runok starts one process per command it validates, writes ONE compact
# JSON-RPC request to stdin with no trailing newline, closes stdin, waits for
# the process to exit and then parses ALL of stdout as one JSON value:
#
#   {"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"curl",
#    "flags":{"X":"POST"},"args":["https://api.example.com"],
#    "raw_command_line":"curl -X POST https://api.example.com",
#    "env":{"AWS_PROFILE":"prod"},"cwd":"/home/user/project"}}
#
# Rule: deny when the command line sends a POST ("-X POST", "-XPOST",
# "--request POST" or "--request=POST") while env has AWS_PROFILE=prod.
# Everything else is allowed.
#
# Written with sh, cat, sed, tr and grep only (no jq, no python), and the
# habits that keep such a script correct:
#
#   * Read with input=$(cat). `while read line` loses the request, because
#     runok never sends a final newline (see ../broken/while_read_guard.sh).
#   * Print exactly one JSON document and nothing else: no `set -x`, no echo
#     debugging on stdout. Exit 0; runok ignores the exit status anyway.
#   * Echo the request id back (runok sends 1 and does not check it, but the
#     protocol asks for it). If the id cannot be found, answer "id":null.
#   * Input that is not a validateCommand request gets a JSON-RPC error, never
#     a default "allow": runok turns an error into "ask".
#
# Why the sed/grep patterns below are safe enough. In runok's request every
# value inside "params" is a string, an array of strings or an object whose
# values are strings, and inside JSON strings every '"' is escaped as '\"'.
# So an unescaped  "id":<digits>  can only be the envelope's id, and an
# unescaped  "AWS_PROFILE":"prod"  can only be an object member (of env; a
# flag by that name is not a thing). A real JSON parser is still the better
# tool for anything subtle: see url_check.py next to this file.

# Byte-wise text handling: in a UTF-8 locale sed's "." refuses invalid byte
# sequences, and a failed match would leak input into our output.
LC_ALL=C
export LC_ALL

input=$(cat)

# JSON allows newlines between tokens; fold them so each sed sees one line.
flat=$(printf '%s' "$input" | tr '\r\n' '  ')

# The request id: the first and only unescaped "id":<integer>.
id=$(printf '%s\n' "$flat" |
    sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\(-\{0,1\}[0-9][0-9]*\).*/\1/p')
case $id in
'' | *[!0-9-]*) id=null ;;
esac

# The raw command line, still JSON-escaped (so it can be pasted back into a
# JSON string verbatim). Take the text after the first "raw_command_line" key
# and keep the string value that follows the colon.
case $flat in
*'"raw_command_line"'*)
    rest=${flat#*\"raw_command_line\"}
    raw=$(printf '%s\n' "$rest" |
        sed -n -E 's/^[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)".*/\1/p')
    ;;
*)
    # Not a validateCommand request (empty stdin, garbage, another method).
    # Say so with a JSON-RPC error: runok then asks the user, which is the
    # safe side. Answering "allow" here would turn every glitch into a pass.
    printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"invalid request: no params.raw_command_line"}}\n' "$id"
    exit 0
    ;;
esac

posts=no
case $raw in
*'-X POST'* | *'-XPOST'* | *'--request POST'* | *'--request=POST'*) posts=yes ;;
esac

prod=no
if printf '%s\n' "$flat" |
    grep -q '"AWS_PROFILE"[[:space:]]*:[[:space:]]*"prod"'; then
    prod=yes
fi

if [ "$posts" = yes ] && [ "$prod" = yes ]; then
    # Suggest the same command as a GET. $raw is still JSON-escaped, and the
    # edits below only swap ASCII words, so the result is a valid JSON string.
    fix=$(printf '%s\n' "$raw" | sed \
        -e 's/-X POST/-X GET/g' -e 's/-XPOST/-XGET/g' \
        -e 's/--request POST/--request GET/g' -e 's/--request=POST/--request=GET/g')
    printf '{"jsonrpc":"2.0","id":%s,"result":{"status":"deny","message":"%s","fix_suggestion":"%s"}}\n' \
        "$id" "POST requests are not allowed while AWS_PROFILE is prod" "$fix"
else
    printf '{"jsonrpc":"2.0","id":%s,"result":{"status":"allow"}}\n' "$id"
fi
exit 0
