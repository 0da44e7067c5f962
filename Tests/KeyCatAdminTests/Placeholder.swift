// SwiftPM refuses to build while a declared test target has no sources; the CLI work replaces this
// file with keycat-admin tests.
