// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

extension ProfileReader {
    /// The values of `major:` or `minor:`: one integer 0…65535, or a range
    /// `{from: A, to: B}` / `{from: A, count: N}` that declares one beacon per value.
    func identityValues(_ field: Field, path: String) -> ClosedRange<Int>? {
        let full = 0...Int(UInt16.max)
        guard let mapping = field.value.mapping else {
            return integer(field, path: path, range: full).map { $0...$0 }
        }
        let keys = fields(of: mapping, at: field.value, allowed: ProfileKeys.range, path: path)
        let allowed = "a range is `{from: A, to: B}` or `{from: A, count: N}` within 0 to 65535"
        guard let fromField = keys["from"] else {
            missing("\(path).from", in: field.value, allowed)
            return nil
        }
        let from = integer(fromField, path: "\(path).from", range: full)
        switch (keys["to"], keys["count"]) {
        case (nil, nil):
            missing("\(path).to", in: field.value, allowed)
            return nil
        case (.some, .some(let count)):
            sink.report(sink.location(of: count.key), field: "\(path).count", value: count.value.displayValue,
                        "give `to` or `count`, not both")
            return nil
        case (.some(let toField), nil):
            guard let from else { return nil }
            guard let to = integer(toField, path: "\(path).to", range: from...full.upperBound) else { return nil }
            return from...to
        case (nil, .some(let countField)):
            guard let from else { return nil }
            let most = full.upperBound - from + 1
            guard let count = integer(countField, path: "\(path).count", range: 1...most,
                                      unit: most < full.count ? "the range must end by 65535" : nil) else {
                return nil
            }
            return from...(from + count - 1)
        }
    }
}
