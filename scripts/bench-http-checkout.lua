-- wrk script for scripts/bench-http --checkout-load: each wrk thread is a buyer on one
-- connection, going round the whole purchase without pause: check out one unit of a product
-- (delivered to an address given inline), pay in the PG simulator's window with a test card,
-- confirm the payment. Run with as many threads as connections (-tN -cN), so each thread's
-- requests follow each other. Settings from the environment: BENCH_TOKENS (comma-separated, one
-- a buyer), BENCH_PRODUCT_ID. Prints the orders confirmed, and the first refusal on stderr.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  local number = 0
  for candidate in string.gmatch(os.getenv("BENCH_TOKENS"), "[^,]+") do
    number = number + 1
    if number == index then token = candidate end
  end
  checkout_body = string.format(
    '{"items": [{"product_id": %s, "quantity": 1}], "address": {"recipient": "김민아", '
      .. '"phone": "010-1234-5678", "postcode": "06236", "road_address": "서울특별시 강남구 테헤란로 152"}}',
    os.getenv("BENCH_PRODUCT_ID"))
  step = "checkout"
  confirmed = 0
  reported = false
end

function request()
  local json = { ["Content-Type"] = "application/json" }
  if step == "pay" then
    return wrk.format("POST", "/pg/payments/" .. merchant_uid, json, '{"card_number": "4242 4242 4242 4242"}')
  end
  json["Authorization"] = "Bearer " .. token
  if step == "confirm" then
    return wrk.format("POST", "/orders/" .. order_id .. "/confirm", json, '{"imp_uid": "' .. imp_uid .. '"}')
  end
  return wrk.format("POST", "/checkout", json, checkout_body)
end

function response(status, headers, body)
  if step == "checkout" and status == 201 then
    order_id = body:match('"id":(%d+)')
    merchant_uid = body:match('"merchant_uid":"([^"]+)"')
    step = "pay"
    return
  elseif step == "pay" and status == 200 then
    imp_uid = body:match('"imp_uid":"([^"]+)"')
    step = "confirm"
    return
  elseif step == "confirm" and status == 200 then
    confirmed = confirmed + 1
  elseif not reported then
    reported = true
    io.stderr:write(step .. " answered " .. status .. ": " .. body .. "\n")
  end
  step = "checkout"
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("confirmed") end
  io.write(string.format("Orders confirmed: %d in %.1f s\n", total, summary.duration / 1e6))
end
