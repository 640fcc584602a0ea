// Completion: what Tab offers for the word before the cursor. Pure logic over the session's
// names; the line editor only hands it the word and the text before it.

import AnimLanguage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What to complete a word with.
package enum CompletionResult: Equatable, Sendable {
  /// These words (each the whole word, not only the missing part), sorted.
  case words([String])
  /// File names: the line editor's own file-name completion (after `:load`, `:save`,
  /// `:restore`).
  case fileNames
}

extension Session {
  /// The completions of `word`, the text just before the cursor back to a blank or
  /// bracket, given the text of the line before it.
  package func completions(of word: String, after lineBefore: String) -> CompletionResult {
    let before = lineBefore.drop { $0 == " " || $0 == "\t" }
    // The first word of a line that starts with `:` is a command name.
    if before.isEmpty && word.hasPrefix(":") {
      return .words(matching(word, Command.allCases.map(\.spelled)))
    }
    if before.hasPrefix(":") {
      let commandName = before.dropFirst().prefix { $0 != " " && $0 != "\t" }
      guard let command = Command(rawValue: String(commandName)) else { return .words([]) }
      switch command {
      case .help: return .words(matching(word, Help.topicNames))
      case .load, .save, .restore:
        // `~us` completes to a user's home, `~user/`, as bash does; the rest is readline's.
        if word.hasPrefix("~") && !word.contains("/") {
          return .words(matching(word, userNames().map { "~\($0)/" }))
        }
        return .fileNames
      case .watch, .unwatch: return .words(matching(word, propertyPaths))
      case .events:
        let timelines = environment.order.filter { environment.timeline(named: $0) != nil }
        return .words(matching(word, ["on", "off"] + timelines + propertyPaths))
      default: return .words([])
      }
    }
    // `T.` and `T.pr` complete to a property of target T.
    if let dot = word.lastIndex(of: ".") {
      let base = String(word[..<dot])
      guard let properties = properties(ofTarget: base) else { return .words([]) }
      return .words(matching(word, properties.map { "\(base).\($0)" }))
    }
    // A time of a timeline (`seek X to `, `play X from `, `play X from A to `, `pause X at `,
    // `tween X to `): one of X's labels.
    let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    if let timeline = timelineTakingATime(after: words) {
      return .words(matching(word, timeline.labels))
    }
    // After a word that takes a subject (`play `, `on complete `), a declared name comes
    // next; elsewhere any word of the language, a declared name or a predeclared one (from
    // the language's one table, Builtins.swift).
    let previousWord = before.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.map(String.init)
    let takesSubject =
      previousWord.map { word in
        ControlAction(rawValue: word) != nil || LifecycleEvent(rawValue: word) != nil
      } ?? false
    let candidates =
      takesSubject
      ? environment.order
      : Keyword.allCases.map(\.rawValue) + ContextualKeyword.allCases.map(\.rawValue) + environment.order
        + Builtins.names
    let found = matching(word, candidates)
    // A target, the one match, completes with its `.`: a property comes next.
    if found.count == 1, properties(ofTarget: found[0]) != nil { return .words([found[0] + "."]) }
    return .words(found)
  }

  /// The timeline whose time the next word is, after `seek X to`, `play X from`, `play X
  /// from A to`, `pause X at` or `tween X to`.
  private func timelineTakingATime(after words: [String]) -> TimelineSymbol? {
    let forms: [(verb: String, word: String)] = [("seek", "to"), ("play", "from"), ("pause", "at"), ("tween", "to")]
    let n = words.count
    if n >= 3, forms.contains(where: { $0.verb == words[n - 3] && $0.word == words[n - 1] }) {
      return environment.timeline(named: words[n - 2])
    }
    if n >= 5, words[n - 5] == "play", words[n - 3] == "from", words[n - 1] == "to" {
      return environment.timeline(named: words[n - 4])
    }
    return nil
  }

  /// `T.p` for every property of every target.
  private var propertyPaths: [String] {
    targetNames.flatMap { target in
      (properties(ofTarget: target) ?? []).map { "\(target).\($0)" }
    }
  }
}

/// The names of the users of this machine (`~user` completion).
private func userNames() -> [String] {
  var names: [String] = []
  setpwent()
  defer { endpwent() }
  while let entry = getpwent(), names.count < 100_000 {
    if let name = entry.pointee.pw_name { names.append(String(cString: name)) }
  }
  return names
}

/// The candidates that start with `prefix`, sorted, without duplicates.
private func matching(_ prefix: String, _ candidates: [String]) -> [String] {
  Array(Set(candidates.filter { $0.hasPrefix(prefix) })).sorted()
}
