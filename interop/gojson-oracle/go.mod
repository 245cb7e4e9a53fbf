module proctor.local/interop/gojson-oracle

go 1.26
