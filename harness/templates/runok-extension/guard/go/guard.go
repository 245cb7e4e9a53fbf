// A runok extension (protocol runok-extension): a command guard.
//
// runok starts this once per command it checks, writes ONE JSON-RPC 2.0
// request to stdin with no trailing newline, closes stdin, and reads all of
// stdout as one JSON-RPC reply with the same id:
//
//	{"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"git",
//	 "args":[...],"flags":{...},"raw_command_line":"git push --force","env":{...},"cwd":"..."}}
//	-> {"jsonrpc":"2.0","id":1,"result":{"status":"allow" | "deny" | "ask","message":"..."}}
//
// This one denies a force push, asks before a push to main, and allows the
// rest. Put your own rule in validate().
//
// Build it once (`go build -o guard .`) and let runok run ./guard:
// `go run .` would compile it again for every command.
package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
)

// verdict is runok's answer: "allow", "deny" or "ask", and why.
type verdict struct {
	Status        string `json:"status"`
	Message       string `json:"message,omitempty"`
	FixSuggestion string `json:"fix_suggestion,omitempty"`
}

// validate is your rule.
func validate(params map[string]any) verdict {
	line, _ := params["raw_command_line"].(string)
	words, err := shellWords(line)
	if err != nil { // unbalanced quotes: let the user decide
		return verdict{Status: "ask", Message: "cannot read this command line"}
	}
	if len(words) >= 2 && words[0] == "git" && words[1] == "push" {
		if slices.Contains(words, "--force") || slices.Contains(words, "-f") {
			return verdict{Status: "deny", Message: "force pushes are not allowed", FixSuggestion: "git push --force-with-lease"}
		}
		if slices.Contains(words[2:], "main") {
			return verdict{Status: "ask", Message: "this pushes to main"}
		}
	}
	return verdict{Status: "allow"}
}

// shellWords splits a command line into words as a POSIX shell would:
// quotes and backslashes group, white space separates.
func shellWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord, quote, escaped := false, rune(0), false
	for _, c := range line {
		switch {
		case escaped:
			word.WriteRune(c)
			escaped = false
		case c == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, errors.New("unbalanced quotes")
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

func main() {
	// Read to EOF: runok sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var request map[string]json.RawMessage
	_ = json.Unmarshal(input, &request) // not JSON, or not an object: no request
	var method string
	_ = json.Unmarshal(request["method"], &method)
	// The id copied as it came (null when there is none).
	answer := map[string]any{"jsonrpc": "2.0", "id": request["id"]}
	if method != "validateCommand" {
		// Not a request we know: an error, never a default "allow" (runok asks the user).
		answer["error"] = map[string]any{"code": -32600, "message": "invalid request"}
	} else {
		var params map[string]any
		_ = json.Unmarshal(request["params"], &params) // not an object: no params
		answer["result"] = validate(params)
	}
	line, _ := json.Marshal(answer)
	os.Stdout.Write(append(line, '\n'))
}
