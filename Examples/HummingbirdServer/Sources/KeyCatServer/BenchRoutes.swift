import Hummingbird
import KeyCatAPI

/// `GET /bench/static`: the bytes of the first product page (`/products?limit=20`) as read once
/// at start, served from memory. Its throughput is Hummingbird's ceiling for that payload, the
/// line `scripts/bench-http` measures the API's routes against. Only with `KEYCAT_BENCH_ROUTES=1`.
enum BenchRoutes {
    static let prefix = "/bench/"

    static func add(to router: Router<ServerContext>, api: KeyCatAPI) async {
        let page = await api.respond(to: APIRequest(method: .get, target: "/products?limit=20"))
        let body = ByteBuffer(bytes: page.body)
        router.get("bench/static") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
    }
}
