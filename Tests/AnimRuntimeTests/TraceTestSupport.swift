// Shorthands for building trace records in tests.

import AnimCore

@testable import AnimRuntime

/// Nanoseconds from seconds written as a decimal literal (exact for the times tests use).
func ns(_ seconds: Double) -> Nanoseconds { Nanoseconds(seconds: seconds) }

func sample(_ time: Nanoseconds, _ values: (String, AnimationValue)...) -> TraceRecord {
  .sample(time: time, values: values.map { NamedValue(name: $0.0, value: $0.1) })
}

/// The text a writer produces for `records`, `write` by `write` and then `finish`.
func render(_ format: TraceFormat, _ records: [TraceRecord], columns: [TraceColumn], title: String = "anim trace")
  -> String
{
  format.render(records, columns: columns, title: title)
}

/// Text split into lines, without the empty string after the final newline.
func lines(_ text: String) -> [String] {
  var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  if parts.last == "" { parts.removeLast() }
  return parts
}

/// The 8-bit channel of a straight color channel as README's trace format defines it: round(c · 255), halves up.
func byte(_ channel: Double) -> Int { Int((channel * 255 + 0.5).rounded(.down)) }
