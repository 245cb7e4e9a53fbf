#!/bin/sh
# while_read_guard.sh: BROKEN ON PURPOSE. A runok extension that reads its
# request with a `while read` loop.
#
# Mistake: `while read -r line; do ...; done` only hands complete lines to the
# loop body. runok writes its request WITHOUT a trailing newline and then
# closes stdin, so the request is one unterminated line: `read` fills $line,
# hits EOF, returns non-zero, and the loop ends before the body ever sees it.
# $input stays empty, and the script answers as if it had received nothing.
#
# Why it is easy to miss: the usual manual test, echo '{...}' | ./guard.sh,
# adds the newline that runok never sends, and then everything works.
#
# What it costs: this script is env_guard.sh with only the input loop changed,
# so for an empty input it answers a JSON-RPC "invalid request" error, and
# runok falls back to asking the user about every single command: the guard
# never denies and never allows. (A script that answered a default "allow" in
# that situation would be worse: a guard that silently passes everything.)
#
# Which proctor check catches it: LIFECYCLE-READS-TO-EOF (the same request must
# get the same answer with and without a trailing newline). And because proctor
# sends cases exactly as runok does, with no trailing newline, every
# CASE-DECISION in while_read_guard.cases.yaml (the same cases as
# ../runok-extension/env_guard.cases.yaml) fails: it expects deny or allow and
# gets a JSON-RPC error.
#
# The fix: input=$(cat). (If a loop is unavoidable, handle the last partial
# line too: `while IFS= read -r line || [ -n "$line" ]; do ...`.)

LC_ALL=C
export LC_ALL

input=
while read -r line; do        # THE BUG: drops the unterminated final line
    input="$input$line"
done

flat=$(printf '%s' "$input" | tr '\r\n' '  ')

id=$(printf '%s\n' "$flat" |
    sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\(-\{0,1\}[0-9][0-9]*\).*/\1/p')
case $id in
'' | *[!0-9-]*) id=null ;;
esac

case $flat in
*'"raw_command_line"'*)
    rest=${flat#*\"raw_command_line\"}
    raw=$(printf '%s\n' "$rest" |
        sed -n -E 's/^[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)".*/\1/p')
    ;;
*)
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
    fix=$(printf '%s\n' "$raw" | sed \
        -e 's/-X POST/-X GET/g' -e 's/-XPOST/-XGET/g' \
        -e 's/--request POST/--request GET/g' -e 's/--request=POST/--request=GET/g')
    printf '{"jsonrpc":"2.0","id":%s,"result":{"status":"deny","message":"%s","fix_suggestion":"%s"}}\n' \
        "$id" "POST requests are not allowed while AWS_PROFILE is prod" "$fix"
else
    printf '{"jsonrpc":"2.0","id":%s,"result":{"status":"allow"}}\n' "$id"
fi
exit 0
