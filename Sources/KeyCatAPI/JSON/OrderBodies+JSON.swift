import KeyCat

// Orders and the cart: what a buyer reloads while paying. Keys in sorted order, optional ones
// left out when absent, as `JSONEncoder.keycat` writes them.

extension OrderBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("amount"); writer.write(amount)
        if let carrier { writer.key("carrier"); writer.write(carrier) }
        writer.key("created_at"); writer.write(createdAt)
        writer.key("delivery_total"); writer.write(deliveryTotal)
        writer.key("expires_at"); writer.write(expiresAt)
        writer.key("fulfilment"); writer.write(fulfilment)
        writer.key("id"); writer.write(id)
        if let impUID { writer.key("imp_uid"); writer.write(impUID) }
        writer.key("items_total"); writer.write(itemsTotal)
        writer.key("lines"); writer.write(lines)
        writer.key("merchant_uid"); writer.write(merchantUID)
        if let paidAt { writer.key("paid_at"); writer.write(paidAt) }
        if let paymentRequest { writer.key("payment_request"); writer.write(paymentRequest) }
        writer.key("refunded_amount"); writer.write(refundedAmount)
        writer.key("shipments"); writer.write(shipments)
        if let shippingAddress { writer.key("shipping_address"); writer.write(shippingAddress) }
        writer.key("status"); writer.write(status)
        if let trackingNumber { writer.key("tracking_number"); writer.write(trackingNumber) }
        writer.endObject()
    }
}

extension OrderBody.PaymentRequestBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("amount"); writer.write(amount)
        if let buyerAddr { writer.key("buyer_addr"); writer.write(buyerAddr) }
        if let buyerName { writer.key("buyer_name"); writer.write(buyerName) }
        if let buyerPostcode { writer.key("buyer_postcode"); writer.write(buyerPostcode) }
        if let buyerTel { writer.key("buyer_tel"); writer.write(buyerTel) }
        writer.key("currency"); writer.write(currency)
        writer.key("merchant_uid"); writer.write(merchantUID)
        writer.key("name"); writer.write(name)
        writer.endObject()
    }
}

extension OrderBody.Line: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("delivery_fee"); writer.write(deliveryFee)
        writer.key("product_id"); writer.write(productID)
        writer.key("quantity"); writer.write(quantity)
        if let refundedAt { writer.key("refunded_at"); writer.write(refundedAt) }
        if let sellerID { writer.key("seller_id"); writer.write(sellerID) }
        writer.key("stock_taken"); writer.write(stockTaken)
        writer.key("title"); writer.write(title)
        writer.key("unit_price"); writer.write(unitPrice)
        writer.endObject()
    }
}

extension ShipmentBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let carrier { writer.key("carrier"); writer.write(carrier) }
        if let carrierDeliveredAt { writer.key("carrier_delivered_at"); writer.write(carrierDeliveredAt) }
        if let carrierStatus { writer.key("carrier_status"); writer.write(carrierStatus) }
        if let confirmedAt { writer.key("confirmed_at"); writer.write(confirmedAt) }
        if let deliveredAt { writer.key("delivered_at"); writer.write(deliveredAt) }
        writer.key("delivery_fee"); writer.write(deliveryFee)
        writer.key("id"); writer.write(id)
        writer.key("lines"); writer.beginArray(); for line in lines { writer.write(line) }; writer.endArray()
        writer.key("order_id"); writer.write(orderID)
        writer.key("seller_id"); writer.write(sellerID)
        if let shippedAt { writer.key("shipped_at"); writer.write(shippedAt) }
        writer.key("status"); writer.write(status)
        if let trackingNumber { writer.key("tracking_number"); writer.write(trackingNumber) }
        writer.endObject()
    }
}

extension AddressBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("detail"); writer.write(detail)
        if let id { writer.key("id"); writer.write(id) }
        if let isDefault { writer.key("is_default"); writer.write(isDefault) }
        writer.key("phone"); writer.write(phone)
        writer.key("postcode"); writer.write(postcode)
        writer.key("recipient"); writer.write(recipient)
        writer.key("request"); writer.write(request)
        writer.key("road_address"); writer.write(roadAddress)
        writer.endObject()
    }
}

extension CartBody: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("delivery_total"); writer.write(deliveryTotal)
        writer.key("items_total"); writer.write(itemsTotal)
        writer.key("lines"); writer.write(lines)
        writer.key("parcels"); writer.write(parcels)
        writer.key("total"); writer.write(total)
        writer.endObject()
    }
}

extension CartBody.Parcel: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("delivery_fee"); writer.write(deliveryFee)
        writer.key("product_ids"); writer.beginArray(); for id in productIDs { writer.write(id) }; writer.endArray()
        if let sellerID { writer.key("seller_id"); writer.write(sellerID) }
        writer.endObject()
    }
}

extension CartBody.Line: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("available"); writer.write(available)
        writer.key("delivery_fee"); writer.write(deliveryFee)
        writer.key("line_total"); writer.write(lineTotal)
        writer.key("product_id"); writer.write(productID)
        writer.key("quantity"); writer.write(quantity)
        if let sellerID { writer.key("seller_id"); writer.write(sellerID) }
        writer.key("stock"); writer.write(stock)
        writer.key("title"); writer.write(title)
        writer.key("unit_price"); writer.write(unitPrice)
        writer.endObject()
    }
}
