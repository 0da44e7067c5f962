-- wrk script for scripts/bench-http's mixed run: of every 20 requests, 19 read the catalog
-- (a page of 20 and a product, in turn) and 1 writes (a buyer sets a cart line's quantity),
-- so every twentieth request commits (on SQLite the catalog cache then starts over; on Postgres
-- a cart write leaves the catalog alone). The writes take the buyers in turn.
-- Reads its settings from the environment: BENCH_PRODUCT_ID, BENCH_TOKENS (comma-separated).
local product = os.getenv("BENCH_PRODUCT_ID")
local tokens = {}
for token in string.gmatch(os.getenv("BENCH_TOKENS"), "[^,]+") do tokens[#tokens + 1] = token end
local counter = 0

request = function()
  counter = counter + 1
  if counter % 20 == 0 then
    local write = math.floor(counter / 20)
    local token = tokens[1 + write % #tokens]
    local body = string.format('{"quantity": %d}', 1 + math.floor(write / #tokens) % 2)
    return wrk.format("PUT", "/cart/items/" .. product,
      { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
  elseif counter % 2 == 0 then
    return wrk.format("GET", "/products?limit=20")
  else
    return wrk.format("GET", "/products/" .. product)
  end
end

-- Each thread tallies the statuses of the answers that were not 2xx; done() prints them, so a
-- failed request in the table says what it was.
local threads = {}
function setup(thread) threads[#threads + 1] = thread end

statuses = {}
response = function(status, headers, body)
  if status >= 300 then
    local key = tostring(status) .. " " .. (string.match(body or "", '"code" *: *"([^"]+)"') or "-")
    statuses[key] = (statuses[key] or 0) + 1
  end
end

done = function(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get("statuses")) do io.write(string.format("refused: %s %d\n", key, count)) end
  end
end
