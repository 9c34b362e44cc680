package tracing

// SpanNameOf is spanNameOf, for the tests.
var SpanNameOf = spanNameOf
