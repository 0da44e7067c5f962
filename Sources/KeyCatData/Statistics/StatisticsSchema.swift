/// The indexes behind the operators' statistics (migration 6): sales by the time orders were
/// paid and refunds by the time they completed, each covering the columns summed, so a report
/// reads only the window's index entries.
enum StatisticsSchema {
    static let sql = """
        CREATE INDEX orders_paid ON orders (paid_at, amount, status) WHERE paid_at IS NOT NULL;
        CREATE INDEX refunds_done ON refunds (updated_at, amount) WHERE status = 'done';
        """
}
