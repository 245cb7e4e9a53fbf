#!/bin/sh
# A runok extension (protocol runok-extension): a command guard, in POSIX sh
# (sh, cat, tr and sed; no jq).
#
# runok starts this once per command it checks, writes ONE JSON-RPC 2.0
# request to stdin with no trailing newline, closes stdin, and reads all of
# stdout as one JSON-RPC reply with the same id:
#   {"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"git",
#    "args":[...],"raw_command_line":"git push --force","env":{...},"cwd":"..."}}
#   -> {"jsonrpc":"2.0","id":1,"result":{"status":"allow"|"deny"|"ask","message":"..."}}
#
# This one denies a force push, asks before a push to main, and allows the
# rest. Put your own rule in the `case` below.
#
# Read all of stdin with $(cat): `while read line` loses the request, which
# has no final newline. Print one JSON document and nothing else on stdout.
# The sed patterns are enough for runok's request, where every value inside
# "params" is a string (or strings in arrays and objects) and every '"' inside
# a string is escaped: an unescaped "id":<digits> can only be the envelope's
# id. For rules that need real JSON parsing, write the plugin in Python.

LC_ALL=C # byte-wise: sed must not choke on invalid UTF-8
export LC_ALL

flat=$(cat | tr '\r\n' '  ')

id=$(printf '%s\n' "$flat" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\(-\{0,1\}[0-9][0-9]*\).*/\1/p')
case $id in '' | *[!0-9-]*) id=null ;; esac

case $flat in
*'"validateCommand"'*'"raw_command_line"'* | *'"raw_command_line"'*'"validateCommand"'*) ;;
*)
    # Not a request we know: an error, never a default "allow" (runok asks the user).
    printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"invalid request"}}\n' "$id"
    exit 0
    ;;
esac

# The command line, still JSON-escaped.
raw=$(printf '%s\n' "${flat#*\"raw_command_line\"}" | sed -n -E 's/^[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)".*/\1/p')

# Your rule here. Spaces around the line make ' word ' match whole words.
status=allow message=''
case " $raw " in
' git push '*)
    case " $raw " in
    *' --force '* | *' -f '*) status=deny message='force pushes are not allowed' ;;
    *' main '*) status=ask message='this pushes to main' ;;
    esac
    ;;
esac

printf '{"jsonrpc":"2.0","id":%s,"result":{"status":"%s","message":"%s"}}\n' "$id" "$status" "$message"
