/// A tracking number for the parcel (or order) `id`, unique on its database: `prefix` and the id
/// in `digits` digits. A number names one parcel (a second order's parcel may not carry it), so
/// tests sharing a database give each parcel its own: numbers by shipment id take the default
/// prefix, numbers by order id another (`5532`), as the two ids run apart.
public func parcelNumber(_ id: some BinaryInteger, prefix: String = "5531", digits: Int = 12) -> String {
    let tail = String(id)
    return prefix + String(repeating: "0", count: max(0, digits - prefix.count - tail.count)) + tail
}
