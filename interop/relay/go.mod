module proctor.local/interop/relay

go 1.25.0
