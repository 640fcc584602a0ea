import AnimCore
import Testing

@testable import AnimLanguage

@Suite struct SuggestionTests {
  @Test func editDistances() {
    #expect(editDistance("animte", "animate") == 1)
    #expect(editDistance("aniamte", "animate") == 1)  // a swap of neighbours is one edit
    #expect(editDistance("kitten", "sitting") == 3)
    #expect(editDistance("", "abc") == 3)
    #expect(editDistance("same", "same") == 0)
    #expect(editDistance("kitten", "sitting", limit: 2) == nil)
    #expect(editDistance("a", "abcdef", limit: 2) == nil)
  }

  @Test func nearNames() {
    #expect(nearestName(to: "easyIn", among: ["ease", "easeIn", "easeOut"]) == "easeIn")
    #expect(nearestName(to: "animte", among: Keyword.allCases.map(\.rawValue)) == "animate")
    #expect(nearestName(to: "forward", among: FillMode.allCases.map(\.rawValue)) == "forwards")
    #expect(nearestName(to: "zzz", among: ["easeIn"]) == nil)
    #expect(nearestName(to: "easeIn", among: ["easeIn"]) == nil)
    // Two-letter words suggest nothing: too many near misses.
    #expect(nearestName(to: "tp", among: ["to"]) == nil)
    #expect(didYouMean("easyIn", among: ["easeIn"]) == "; did you mean 'easeIn'?")
    #expect(didYouMean("zzz", among: ["easeIn"]) == "")
  }
}
