// Command gojson-oracle decodes inputs with the real encoding/json into Go
// types built at run time, so proctor's gojson model can be held to it.
//
// Input (stdin): the first line is a JSON array of type descriptions (the
// serde serialisation of proctor's gojson::GoType); every further line is
// "<type index> <hex of the input bytes>". For each such line it prints one
// JSON line: {"ok": <canonical value>} or {"err": "<err.Error()>", "kind":
// "syntax"|"type"|"other", "offset": <Offset>}.
//
// The canonical value is what the Go program holds, written so that nothing
// is lost: structs as objects keyed by Go field name (every field), nil as
// null, pointers transparent, integers as JSON integers, floats as
// {"$f": "<16 hex digits of the float64 bits>"}, a non-nil json.RawMessage as
// {"$raw": "<text>"} (or {"$raw_hex": "..."} when not valid UTF-8).
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

var rawMessageType = reflect.TypeFor[json.RawMessage]()

type field struct {
	Name     string          `json:"name"`
	GoName   string          `json:"go_name"`
	Ty       json.RawMessage `json:"ty"`
	Embedded bool            `json:"embedded"`
}

type bits struct {
	Bits int `json:"bits"`
}

// buildType turns a serde-serialised GoType into a reflect.Type.
func buildType(desc json.RawMessage) (reflect.Type, error) {
	var unit string
	if json.Unmarshal(desc, &unit) == nil {
		switch unit {
		case "Bool":
			return reflect.TypeFor[bool](), nil
		case "String":
			return reflect.TypeFor[string](), nil
		case "Any":
			return reflect.TypeFor[any](), nil
		case "RawMessage":
			return rawMessageType, nil
		}
		return nil, fmt.Errorf("unknown type %q", unit)
	}
	var tagged map[string]json.RawMessage
	if err := json.Unmarshal(desc, &tagged); err != nil || len(tagged) != 1 {
		return nil, fmt.Errorf("bad type description %s", desc)
	}
	for tag, body := range tagged {
		switch tag {
		case "Int", "Uint", "Float":
			var b bits
			if err := json.Unmarshal(body, &b); err != nil {
				return nil, err
			}
			return numberType(tag, b.Bits)
		case "Slice", "Map", "Ptr":
			elem, err := buildType(body)
			if err != nil {
				return nil, err
			}
			switch tag {
			case "Slice":
				return reflect.SliceOf(elem), nil
			case "Map":
				return reflect.MapOf(reflect.TypeFor[string](), elem), nil
			}
			return reflect.PointerTo(elem), nil
		case "Struct":
			return structType(body)
		}
		return nil, fmt.Errorf("unknown type %q", tag)
	}
	return nil, errors.New("unreachable")
}

func numberType(kind string, n int) (reflect.Type, error) {
	types := map[string]reflect.Type{
		"Int0": reflect.TypeFor[int](), "Int8": reflect.TypeFor[int8](), "Int16": reflect.TypeFor[int16](),
		"Int32": reflect.TypeFor[int32](), "Int64": reflect.TypeFor[int64](),
		"Uint0": reflect.TypeFor[uint](), "Uint8": reflect.TypeFor[uint8](), "Uint16": reflect.TypeFor[uint16](),
		"Uint32": reflect.TypeFor[uint32](), "Uint64": reflect.TypeFor[uint64](),
		"Float32": reflect.TypeFor[float32](), "Float64": reflect.TypeFor[float64](),
	}
	if t, ok := types[kind+strconv.Itoa(n)]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("no %s of %d bits", kind, n)
}

func structType(body json.RawMessage) (reflect.Type, error) {
	var s struct {
		Fields []field `json:"fields"`
	}
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, err
	}
	fields := make([]reflect.StructField, 0, len(s.Fields))
	for _, f := range s.Fields {
		t, err := buildType(f.Ty)
		if err != nil {
			return nil, err
		}
		sf := reflect.StructField{Name: f.GoName, Type: t, Anonymous: f.Embedded}
		if f.Name != f.GoName {
			sf.Tag = reflect.StructTag(`json:"` + f.Name + `"`)
		}
		fields = append(fields, sf)
	}
	return reflect.StructOf(fields), nil
}

// canonical writes v in the lossless form described in the package comment.
func canonical(v reflect.Value) any {
	if v.Type() == rawMessageType {
		if v.IsNil() {
			return nil
		}
		b := v.Bytes()
		if utf8.Valid(b) {
			return map[string]any{"$raw": string(b)}
		}
		return map[string]any{"$raw_hex": hex.EncodeToString(b)}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return canonical(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = canonical(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := map[string]any{}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			out[k.String()] = canonical(v.MapIndex(k))
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			out[v.Type().Field(i).Name] = canonical(v.Field(i))
		}
		return out
	case reflect.Float32, reflect.Float64:
		return map[string]any{"$f": fmt.Sprintf("%016x", math.Float64bits(v.Float()))}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	}
	return fmt.Sprintf("unsupported kind %s", v.Kind())
}

func decode(t reflect.Type, data []byte) map[string]any {
	v := reflect.New(t)
	err := json.Unmarshal(data, v.Interface())
	if err == nil {
		return map[string]any{"ok": canonical(v.Elem())}
	}
	out := map[string]any{"err": err.Error(), "kind": "other"}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		out["kind"], out["offset"] = "syntax", syn.Offset
	case errors.As(err, &typ):
		out["kind"], out["offset"] = "type", typ.Offset
	}
	return out
}

func run() error {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	header, err := in.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading the types: %w", err)
	}
	var descs []json.RawMessage
	if err := json.Unmarshal(header, &descs); err != nil {
		return fmt.Errorf("parsing the types: %w", err)
	}
	types := make([]reflect.Type, len(descs))
	for i, d := range descs {
		if types[i], err = buildType(d); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadString('\n')
		if line = strings.TrimRight(line, "\r\n"); line != "" {
			idx, hexData, found := strings.Cut(line, " ")
			i, convErr := strconv.Atoi(idx)
			if !found || convErr != nil || i < 0 || i >= len(types) {
				return fmt.Errorf("bad input line %q", line)
			}
			data, hexErr := hex.DecodeString(hexData)
			if hexErr != nil {
				return hexErr
			}
			if err := enc.Encode(decode(types[i], data)); err != nil {
				return err
			}
		}
		if err != nil {
			return nil
		}
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gojson-oracle:", err)
		os.Exit(2)
	}
}
