import KeyCat

// A listing's JSON, the body of the product page and of the product detail: the routes a
// client calls most. Keys in sorted order, optional ones left out when absent, as the
// synthesized `Encodable` conformance under `JSONEncoder.keycat` writes them.

extension ProductBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("bookmark_count"); writer.write(bookmarkCount)
        writer.key("category"); writer.write(category)
        writer.key("content"); writer.write(content)
        writer.key("coupon_price"); writer.write(couponPrice)
        writer.key("created_at"); writer.write(createdAt)
        writer.key("delivery_fee"); writer.write(deliveryFee)
        writer.key("delivery_schedule"); writer.write(deliverySchedule)
        if let discountEndsAt { writer.key("discount_ends_at"); writer.write(discountEndsAt) }
        writer.key("id"); writer.write(id)
        writer.key("images"); writer.write(images)
        writer.key("kind"); writer.write(kind)
        writer.key("price"); writer.write(price)
        if let ratingAverage { writer.key("rating_average"); writer.write(ratingAverage) }
        writer.key("rating_count"); writer.write(ratingCount)
        writer.key("regular_price"); writer.write(regularPrice)
        writer.key("seller_id"); writer.write(sellerID)
        writer.key("spec"); writer.write(spec)
        writer.key("stock"); writer.write(stock)
        writer.key("tags")
        writer.beginArray()
        for tag in tags { writer.write(tag) }
        writer.endArray()
        writer.key("title"); writer.write(title)
        writer.key("updated_at"); writer.write(updatedAt)
        writer.key("version"); writer.write(version)
        writer.endObject()
    }
}

extension ProductBody.Image: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("file_name"); writer.write(fileName)
        writer.key("format"); writer.write(format)
        writer.key("sha256"); writer.write(sha256)
        writer.endObject()
    }
}

extension ProductBody.Spec: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let backlight { writer.key("backlight"); writer.write(backlight) }
        if let connection { writer.key("connection"); writer.write(connection) }
        if let input { writer.key("input"); writer.write(input) }
        if let keycapProfile { writer.key("keycap_profile"); writer.write(keycapProfile) }
        if let layout { writer.key("layout"); writer.write(layout) }
        if let pcb { writer.key("pcb"); writer.write(pcb) }
        if let switchType { writer.key("switch_type"); writer.write(switchType) }
        writer.endObject()
    }
}
