// The plugin's module: the standard library only, so no require lines.
// Build the plugin once with `go build -o NAME .` and run the binary:
// `go run .` would compile it again on every call the runtime makes.
module my-plugin

go 1.22
