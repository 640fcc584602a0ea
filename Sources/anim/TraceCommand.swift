import AnimCore
import AnimLanguage
import AnimRuntime
import ArgumentParser

/// `anim trace FILE`: the script on a virtual clock, as fast as the machine can, writing
/// samples, events and prints in time order: the deterministic twin of `anim run`.
struct TraceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trace",
    abstract: "Run a script on a virtual clock and write its samples, events and prints.",
    discussion: """
      Samples at k / fps seconds (k = 0, 1, ...) up to and including --until, or exactly at \
      the --at times. Without --until the trace ends when nothing is playing and nothing is \
      due; a script that never gets there needs --until. Standard output holds only the \
      trace; diagnostics go to standard error. Exit status: 0, 64 wrong usage, 65 errors in \
      the script or at run time (it still runs to the end), 66 unreadable file.
      """
  )

  @ArgumentParser.Argument(help: "The script to trace.")
  var file: String

  @Option(help: "Samples per second (default 60).")
  var fps: Int64 = 60

  @Option(help: "Sample exactly at these times instead, comma-separated: 0.4s,1s,1500ms.")
  var at: String?

  @Option(help: "The last time sampled, such as 10s.")
  var until: String?

  @Option(help: "The properties to write, comma-separated T.p names (default: every one).")
  var watch: String?

  @Option(help: "jsonl (default), csv, table or svg.")
  var format: TraceFormat = .jsonl

  func validate() throws {
    guard fps > 0, fps <= 1_000_000 else { throw ValidationError("'--fps' takes a whole number from 1 to 1000000") }
    if let until, DurationArgument.parse(until) == nil {
      throw ValidationError(DurationArgument.usage("--until", until))
    }
    for time in times ?? [] where time == nil {
      throw ValidationError("'--at' takes durations such as 0.4s,1s,1500ms; '\(at ?? "")' is not a list of them")
    }
  }

  /// The `--at` times, each nil when it does not parse.
  private var times: [Nanoseconds?]? {
    at.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { DurationArgument.parse(String($0)) } }
  }

  func run() throws {
    ignoreBrokenPipes()
    returnLargeBlocksWhenFreed()
    try runReportingInternalFailures {
      let (runtime, first): (Runtime, [RuntimeOutput])
      // The chart marks control statements: the runtime reports them from the start.
      switch ScriptFile.readAndStart(file, recordsControls: format == .svg) {
      case .success(let started): (runtime, first) = started
      case .failure(let status): return status
      }
      // The process ends with this command: the runtime (every declaration, every statement
      // held for later: hundreds of thousands in a large script) is left for the exit to
      // reclaim, not freed object by object, which took a tenth of such a trace's time.
      _ = Unmanaged.passRetained(runtime)

      var options = TraceOptions(
        fps: fps, times: times?.compactMap { $0 }, until: until.flatMap(DurationArgument.parse),
        watch: watch.map { $0.split(separator: ",").map { $0.trimmingWhitespace() } })
      options.marksControls = format == .svg
      var writer: (any TraceWriter)?
      // The default format's writer, apart: it hands a sample's line over in pieces, so that
      // a sample of a million properties is never one string of megabytes.
      var jsonl = format == .jsonl ? JSONLTraceWriter() : nil
      var pending = ""
      var hadRuntimeErrors = false
      func flush(force: Bool = false) {
        if force || pending.utf8.count > 1 << 16 {
          if !Output.standardOutput.write(pending) && Output.standardOutput.isClosed { Output.endForClosedOutput() }
          pending = ""
        }
      }
      do throws(TraceError) {
        try runtime.trace(
          startedWith: first, options: options,
          emit: { record in
            if jsonl != nil {
              jsonl!.write(record) { piece in
                if pending.isEmpty { pending = piece } else { pending += piece }
                flush()
              }
              return
            }
            if writer == nil {
              // The columns are the watched properties, known once the script has started.
              writer = format.writer(columns: runtime.traceColumns(watching: options.watch), title: file)
            }
            // (A sample of a million properties is a line of megabytes: taken, not copied.)
            let text = writer!.write(record)
            if pending.isEmpty { pending = text } else { pending += text }
            flush()
          },
          // A sample of the default format is written as it is read, with no record of every
          // value (a million, in a script of targets traced once).
          emitSample: jsonl == nil
            ? nil
            : { sample in
              jsonl!.write(sample) { piece in
                if pending.isEmpty { pending = piece } else { pending += piece }
                flush()
              }
            },
          report: { error, errorSource in
            hadRuntimeErrors = true
            flush(force: true)
            report([error.diagnostic], in: errorSource)
          })
      } catch {
        flush(force: true)
        Output.standardError.write("anim: error: \(error)\n")
        return error.isUsage ? .usage : .scriptErrors
      }
      if jsonl != nil {
        pending += jsonl!.finish()
      } else {
        if writer == nil { writer = format.writer(columns: runtime.traceColumns(watching: options.watch), title: file) }
        pending += writer!.finish()
      }
      flush(force: true)
      return hadRuntimeErrors || runtime.hadErrors ? .scriptErrors : .success
    }
  }
}

extension TraceFormat: ExpressibleByArgument {}

extension TraceError {
  /// A wrong `--watch` name is wrong usage; a script that never ends is the script's.
  var isUsage: Bool {
    if case .unknownProperty = self { return true }
    return false
  }
}

extension Substring {
  func trimmingWhitespace() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
