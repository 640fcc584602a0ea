// Systematic corruptions of a saved session: every leaf of its JSON replaced by values out of
// its domain, and every list shortened, lengthened and emptied. These are the corruptions a
// byte-level fuzzer rarely reaches, since nearly every random byte change breaks the JSON.

import Foundation

enum Mutations {
  /// A corrupted file and what was done to it.
  struct Variant {
    var name: String
    var data: Data
  }

  /// Numbers out of every domain a session's numbers have: indices (−1, 99), counters and
  /// times (Int64's ends, the end of time 2⁶² and just below it), sizes (1e308), rates and
  /// fractions (0, 0.5, −0.5), and integers that read as non-integers.
  static var numbers: [Any] {
    [
      -1, 99, 0, 1, 1e308, -1e308, Int64.max, Int64.min, 1 << 62, (1 << 62) - 1, -(1 << 62), 0.5, -0.5, 1e-300,
      4_294_967_295, 2_147_483_647,
    ]
  }

  /// Every variant of the JSON in `data`, or nil when it is not JSON.
  static func variants(of data: Data) -> [Variant]? {
    guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
    var result: [Variant] = []
    func add(_ name: String, _ value: Any) {
      if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
        result.append(Variant(name: name, data: data))
      }
    }
    /// Every replacement of the value at `path` in `value`, each handed to `emit` with the
    /// whole document rebuilt around it.
    func walk(_ value: Any, _ path: String, _ rebuild: (Any) -> Any) {
      switch value {
      case let dictionary as [String: Any]:
        for key in dictionary.keys.sorted() {
          walk(dictionary[key]!, "\(path).\(key)") { replacement in
            var copy = dictionary
            copy[key] = replacement
            return rebuild(copy)
          }
          var without = dictionary
          without[key] = nil
          add("\(path).\(key) removed", rebuild(without))
        }
      case let array as [Any]:
        if !array.isEmpty {
          add("\(path) emptied", rebuild([Any]()))
          add("\(path) without its first", rebuild(Array(array.dropFirst())))
          add("\(path) without its last", rebuild(Array(array.dropLast())))
          add("\(path) with its first twice", rebuild([array[0]] + array))
          add("\(path) reversed", rebuild(Array(array.reversed())))
        }
        for (index, element) in array.enumerated() {
          walk(element, "\(path)[\(index)]") { replacement in
            var copy = array
            copy[index] = replacement
            return rebuild(copy)
          }
        }
      case let number as NSNumber where String(cString: number.objCType) == "c":
        add("\(path) flipped", rebuild(!number.boolValue))
        add("\(path) as 1", rebuild(1))
      case is NSNumber:
        for replacement in numbers { add("\(path) = \(replacement)", rebuild(replacement)) }
        add("\(path) as a string", rebuild("1"))
        add("\(path) as null", rebuild(NSNull()))
      case let string as String:
        add("\(path) = \"\"", rebuild(""))
        add("\(path) = \"forever\"", rebuild("forever"))
        add("\(path) as 1", rebuild(1))
        if string.count < 10_000 { add("\(path) doubled", rebuild(string + string)) }
      default:
        add("\(path) as 0", rebuild(0))
      }
    }
    walk(root, "$") { $0 }
    return result
  }
}
