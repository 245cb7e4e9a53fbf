"""Splits a line into words as a POSIX shell would (shlex), for a command the
action runs without a shell, and writes them NUL-separated to stdout.

    python3 words.py LINE command   the plugin's command line: must not be empty
    python3 words.py LINE args      extra certify flags: may be empty
    python3 words.py LINE scenarios scenario files or folders for proctor run

A shell operator outside quotes would only become a word, so it is refused
with the way to get a shell. Exit 1 with the reason on stderr.
"""

import os
import shlex
import sys

SUBJECT = {"command": "the command runs", "args": "the args are passed", "scenarios": "the scenarios are passed"}


def unquoted_operators(line):
    """The runs of shell operator characters outside quotes and escapes, by the POSIX quoting shlex applies."""
    found, quote, i = [], None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                i += 1
        elif c == "\\":
            i += 1
        elif c in "\"'":
            quote = c
        elif c in ";&|<>()":
            end = i
            while end < len(line) and line[end] in ";&|<>()":
                end += 1
            found.append(line[i:end])
            i = end
            continue
        i += 1
    return found


def main(line, what):
    try:
        words = shlex.split(line)
    except ValueError as e:
        sys.exit(f"{e} (quote it as a shell would)")
    if not words and what == "command":
        sys.exit("it is empty: give the plugin command line, e.g. python3 hook.py")
    operators = unquoted_operators(line)
    if operators:
        sys.exit(
            f"{operators[0]} is a shell operator, but {SUBJECT[what]} without a shell: "
            "write sh -c '...' explicitly if a shell is wanted, or quote it if it is an argument"
        )
    sys.stdout.buffer.write(b"".join(os.fsencode(w) + b"\0" for w in words))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
