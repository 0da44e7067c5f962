-- wrk script for scripts/bench-http's mixed run: of every 20 requests, 19 read the catalog
-- (a page of 20 and a product, in turn) and 1 writes (a buyer sets a cart line's quantity),
-- so every twentieth request commits and the catalog cache starts over.
-- Reads its settings from the environment: BENCH_PRODUCT_ID, BENCH_TOKEN.
local product = os.getenv("BENCH_PRODUCT_ID")
local token = os.getenv("BENCH_TOKEN")
local counter = 0

request = function()
  counter = counter + 1
  if counter % 20 == 0 then
    local body = string.format('{"quantity": %d}', 1 + (counter / 20) % 2)
    return wrk.format("PUT", "/cart/items/" .. product,
      { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
  elseif counter % 2 == 0 then
    return wrk.format("GET", "/products?limit=20")
  else
    return wrk.format("GET", "/products/" .. product)
  end
end
