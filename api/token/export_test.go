package token

// WriteTokenFile lets the external tests put a token file in place as a
// saved login leaves it.
var WriteTokenFile = writeTokenFile

// secret is the token value of this package's own tests (source_test.go,
// an external test, has its own).
const secret = "vdtok_S3cr3t-value_0123456789"
