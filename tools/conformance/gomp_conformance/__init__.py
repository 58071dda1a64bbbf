"""GCC's libgomp testsuite run on libgomp and on ilan from the same binaries (`make conformance`)."""
