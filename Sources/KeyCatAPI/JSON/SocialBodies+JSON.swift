import KeyCat

// Reviews, bookmarks and follows: the lists under a listing and a profile. Keys in sorted
// order, optional ones left out when absent, as `JSONEncoder.keycat` writes them.

extension ReviewBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("author_id"); writer.write(authorID)
        writer.key("author_nick"); writer.write(authorNick)
        writer.key("content"); writer.write(content)
        writer.key("created_at"); writer.write(createdAt)
        writer.key("id"); writer.write(id)
        writer.key("product_id"); writer.write(productID)
        writer.key("rating"); writer.write(rating)
        writer.endObject()
    }
}

extension BookmarkBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("bookmarked_at"); writer.write(bookmarkedAt)
        writer.key("product"); writer.write(product)
        writer.key("product_deleted"); writer.write(productDeleted)
        writer.endObject()
    }
}

extension FollowEntryBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("followed_at"); writer.write(followedAt)
        writer.key("nick"); writer.write(nick)
        if let profileImage { writer.key("profile_image"); writer.write(profileImage) }
        writer.key("user_id"); writer.write(userID)
        writer.key("withdrawn"); writer.write(withdrawn)
        writer.endObject()
    }
}

extension FollowCountsBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("followers"); writer.write(followers)
        writer.key("following"); writer.write(following)
        writer.endObject()
    }
}
