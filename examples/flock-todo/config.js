// What Flock's sample apps keep in config.js, read here from the environment.
var env = function (name) {
    if (!process.env[name]) {
        console.error('set ' + name);
        process.exit(2);
    }
    return process.env[name];
};

module.exports = {
    appId: env('APP_ID'),
    appSecret: env('APP_SECRET'),
    botToken: env('BOT_TOKEN'),
    // Aviary's method URL, such as http://localhost:8080/v1: the one line that differs from Flock.
    baseUrl: env('FLOCK_BASE_URL'),
    port: Number(process.env.PORT || 3000)
};
